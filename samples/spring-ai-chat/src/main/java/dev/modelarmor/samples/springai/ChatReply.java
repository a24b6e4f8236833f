package dev.modelarmor.samples.springai;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The answer of {@code POST /chat}.
 * @param reply the screened (possibly de-identified) answer, or the advisor's refusal when blocked
 * @param blocked whether Model Armor blocked the prompt or the answer
 * @param phase {@code PROMPT} or {@code RESPONSE} when blocked, else {@code null}
 * @param filters the filters that matched when blocked, sorted; empty when screening could not complete
 */
public record ChatReply(String reply, boolean blocked, @Nullable String phase, List<String> filters) {

	/**
	 * Copies the filters.
	 */
	public ChatReply {
		filters = List.copyOf(filters);
	}

}
