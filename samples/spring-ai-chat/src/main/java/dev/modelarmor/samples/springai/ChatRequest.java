package dev.modelarmor.samples.springai;

import org.jspecify.annotations.Nullable;

/**
 * What a client posts to {@code POST /chat} and {@code POST /chat/stream}.
 * @param message the user's message
 */
public record ChatRequest(@Nullable String message) {
}
