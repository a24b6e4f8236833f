/**
 * The gateway sample: a Spring Cloud Gateway with the {@code ModelArmor} filter in front of a fake
 * OpenAI-compatible model.
 */
@NullMarked
package dev.modelarmor.samples.gateway;

import org.jspecify.annotations.NullMarked;
