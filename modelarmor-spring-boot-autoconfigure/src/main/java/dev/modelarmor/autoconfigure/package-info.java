/**
 * Spring Boot auto-configuration of the Model Armor starter: wiring and properties only.
 */
@NullMarked
package dev.modelarmor.autoconfigure;

import org.jspecify.annotations.NullMarked;
