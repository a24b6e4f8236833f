/**
 * Spring AI integration: {@link dev.modelarmor.ai.ModelArmorAdvisor}, a {@code ChatClient} advisor that
 * screens the user prompt before the model and the model's answer after it, with the same decision
 * policy as {@code @ModelArmorGuarded} methods.
 */
@NullMarked
package dev.modelarmor.ai;

import org.jspecify.annotations.NullMarked;
