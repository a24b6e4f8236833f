/**
 * A WebFlux chat that streams its answer as server-sent events, screened by Model Armor through
 * {@link dev.modelarmor.guard.ModelArmorGuarded @ModelArmorGuarded} on a {@code Flux<String>}, with a
 * deterministic responder in place of an LLM and, in profile {@code local}, a local stand-in for the
 * Model Armor API.
 */
@NullMarked
package dev.modelarmor.samples.reactive;

import org.jspecify.annotations.NullMarked;
