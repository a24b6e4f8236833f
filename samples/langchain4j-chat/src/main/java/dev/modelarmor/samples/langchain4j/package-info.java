/**
 * A LangChain4j AI service with tools and retrieval whose prompts, answers, tool calls, tool results, tool
 * descriptions and retrieved segments are screened by Model Armor through the beans of
 * {@code modelarmor-langchain4j}, with a deterministic chat model in place of an LLM and, in profile
 * {@code local}, a local stand-in for the Model Armor API.
 */
@NullMarked
package dev.modelarmor.samples.langchain4j;

import org.jspecify.annotations.NullMarked;
