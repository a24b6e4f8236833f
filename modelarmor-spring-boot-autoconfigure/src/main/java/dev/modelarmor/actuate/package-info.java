/**
 * Actuator support: the {@code modelArmor} health indicator. Needs {@code spring-boot-health} on the
 * classpath and {@code management.health.modelarmor.enabled=true}.
 */
@NullMarked
package dev.modelarmor.actuate;

import org.jspecify.annotations.NullMarked;
