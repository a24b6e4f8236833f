/**
 * The MCP servers an application serves with Spring AI's MCP server starter, screened by Model Armor: the
 * arguments of every {@code tools/call} before the tool runs, its result before it leaves, and the results of
 * {@code prompts/get} and {@code resources/read}, through {@link dev.modelarmor.ai.mcp.ModelArmorMcpServerScreener}.
 */
@NullMarked
package dev.modelarmor.ai.mcp;

import org.jspecify.annotations.NullMarked;
