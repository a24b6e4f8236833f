/**
 * Spring AI tools screened by Model Armor: tool calls and their results
 * ({@link dev.modelarmor.ai.tool.ModelArmorToolCallback}, {@link dev.modelarmor.ai.tool.ModelArmorToolCallingManager},
 * {@link dev.modelarmor.ai.tool.ModelArmorToolCallbackResolver}) and tool definitions, through
 * {@link dev.modelarmor.ai.tool.ModelArmorToolScreener}.
 */
@NullMarked
package dev.modelarmor.ai.tool;

import org.jspecify.annotations.NullMarked;
