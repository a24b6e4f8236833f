/**
 * The Spring AI {@code ChatClient} advisor: {@link dev.modelarmor.ai.advisor.ModelArmorAdvisor} screens the user
 * prompt before the model and the model's answer after it (whole or as it streams), with the same decision
 * policy as {@code @ModelArmorGuarded} methods; {@link dev.modelarmor.ai.advisor.PromptVerdictToolCallingManager}
 * holds tools back until a prompt screened in parallel with the model passed.
 */
@NullMarked
package dev.modelarmor.ai.advisor;

import org.jspecify.annotations.NullMarked;
