/**
 * What the samples share to run without a Google Cloud account: the local Model Armor stand-in of
 * {@code modelarmor-spring-boot-test} (<b>not Model Armor</b>) with controls on top, imported with
 * {@link dev.modelarmor.samples.standin.StandInConfiguration} in profile {@code local}, and a deterministic
 * responder in place of an LLM.
 */
@NullMarked
package dev.modelarmor.samples.standin;

import org.jspecify.annotations.NullMarked;
