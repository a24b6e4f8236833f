/**
 * Auto-configuration of the Model Armor test support, imported only by
 * {@link dev.modelarmor.test.AutoConfigureModelArmorStandIn @AutoConfigureModelArmorStandIn} (never by
 * an application's own auto-configuration), and the test-context hooks that reset the stand-in and
 * prepare a context whose client a test replaces.
 */
@NullMarked
package dev.modelarmor.test.autoconfigure;

import org.jspecify.annotations.NullMarked;
