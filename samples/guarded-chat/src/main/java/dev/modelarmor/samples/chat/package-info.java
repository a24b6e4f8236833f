/**
 * A web chat whose prompts and answers are screened by Model Armor through
 * {@link dev.modelarmor.guard.ModelArmorGuarded @ModelArmorGuarded}, with a deterministic responder in
 * place of an LLM and, in profile {@code local}, a local stand-in for the Model Armor API.
 */
@NullMarked
package dev.modelarmor.samples.chat;

import org.jspecify.annotations.NullMarked;
