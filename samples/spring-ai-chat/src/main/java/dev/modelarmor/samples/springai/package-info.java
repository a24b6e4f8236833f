/**
 * A Spring AI {@code ChatClient} application whose prompts and answers are screened by Model Armor
 * through the starter's {@link dev.modelarmor.ai.advisor.ModelArmorAdvisor}, with a deterministic
 * {@code ChatModel} in place of an LLM and, in profile {@code local}, a local stand-in for the Model Armor
 * API.
 */
@NullMarked
package dev.modelarmor.samples.springai;

import org.jspecify.annotations.NullMarked;
