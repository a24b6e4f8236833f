package dev.modelarmor.samples.langchain4j;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The answer of {@code POST /chat}.
 *
 * @param reply the model's answer, or the refusal
 * @param blocked whether Model Armor refused the call
 * @param phase what was refused ({@code PROMPT}, {@code RESPONSE}, {@code TOOL_CALL}), or {@code null}
 * @param filters the filters that matched, empty when none or when it could not be screened
 */
public record ChatReply(String reply, boolean blocked, @Nullable String phase, List<String> filters) {
}
