/**
 * Test support for applications that use the Model Armor starter (add
 * {@code dev.modelarmor:modelarmor-spring-boot-test} with test scope).
 * <ul>
 * <li>{@link dev.modelarmor.test.AutoConfigureModelArmorStandIn @AutoConfigureModelArmorStandIn}: the
 * application's real client, retries, guard and advisor run against an in-process Model Armor
 * <b>stand-in</b> ({@link dev.modelarmor.test.ModelArmorStandIn}, not Model Armor) on loopback.</li>
 * <li>{@link dev.modelarmor.test.ModelArmorResults}: results for tests that mock the client.</li>
 * <li>{@link dev.modelarmor.test.ModelArmorAssertions}: AssertJ assertions for results and blocked calls.</li>
 * </ul>
 */
@NullMarked
package dev.modelarmor.test;

import org.jspecify.annotations.NullMarked;
