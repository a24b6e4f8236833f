package dev.modelarmor.samples.langchain4j;

import org.jspecify.annotations.Nullable;

/**
 * The body of the chat endpoints.
 *
 * @param message the user's message
 */
public record ChatRequest(@Nullable String message) {
}
