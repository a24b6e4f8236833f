/**
 * Model Armor for LangChain4j AI services: {@link dev.modelarmor.langchain4j.ModelArmorInputGuardrail} and
 * {@link dev.modelarmor.langchain4j.ModelArmorOutputGuardrail} for the prompt and the answer,
 * {@link dev.modelarmor.langchain4j.ModelArmorToolInputGuardrail} and
 * {@link dev.modelarmor.langchain4j.ModelArmorToolOutputGuardrail} for tool calls, tool results and tool
 * specifications, {@link dev.modelarmor.langchain4j.ModelArmorContentAggregator} for retrieved content and
 * {@link dev.modelarmor.langchain4j.ModelArmorModerationModel} for {@code @Moderate}. Each screens through the
 * starter's {@link dev.modelarmor.screening.ModelArmorScreening}, so fail-open or fail-closed, the verdict
 * cache, the metrics, the log lines, the retry strategy and its deadline are those of every other integration.
 */
@NullMarked
package dev.modelarmor.langchain4j;

import org.jspecify.annotations.NullMarked;
