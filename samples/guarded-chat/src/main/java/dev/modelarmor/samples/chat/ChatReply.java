package dev.modelarmor.samples.chat;

/**
 * The answer of {@code POST /chat}.
 * @param reply the screened (possibly de-identified) reply
 */
public record ChatReply(String reply) {
}
