package dev.modelarmor.samples.chat;

import org.jspecify.annotations.Nullable;

/**
 * What the chat page posts to {@code POST /chat}.
 * @param message the user's message
 */
public record ChatRequest(@Nullable String message) {
}
