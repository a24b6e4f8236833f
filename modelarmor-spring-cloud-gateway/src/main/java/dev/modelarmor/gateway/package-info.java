/**
 * Model Armor at the edge: the {@code ModelArmor} filter of Spring Cloud Gateway Server WebFlux
 * ({@link dev.modelarmor.gateway.ModelArmorGatewayFilterFactory}), which screens the LLM traffic of every
 * application behind the gateway, and its auto-configuration and properties ({@code modelarmor.gateway.*}).
 */
@NullMarked
package dev.modelarmor.gateway;

import org.jspecify.annotations.NullMarked;
