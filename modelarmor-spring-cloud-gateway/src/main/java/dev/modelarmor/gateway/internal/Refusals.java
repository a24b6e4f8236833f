package dev.modelarmor.gateway.internal;

import java.util.TreeSet;

import dev.modelarmor.screening.ScreeningDecision.Blocked;
import dev.modelarmor.screening.ScreeningDecision.Refusal;
import dev.modelarmor.screening.ScreeningDecision.Rejected;

/**
 * What a refusal tells the client: the filters that matched, or why Model Armor refused the text, never
 * the content.
 */
final class Refusals {

	private Refusals() {
	}

	static String message(Refusal refusal) {
		if (refusal instanceof Blocked blocked) {
			return "Refused by Model Armor: the " + phase(refusal) + " matched the filters "
					+ String.join(", ", new TreeSet<>(blocked.result().matchedFilters()));
		}
		if (refusal instanceof Rejected rejected) {
			return "Refused by Model Armor: the " + phase(refusal) + " could not be screened ("
					+ (rejected.tooLarge() ? "too large" : "refused by Model Armor") + ")";
		}
		return "Refused by Model Armor: the " + phase(refusal) + " could not be screened";
	}

	private static String phase(Refusal refusal) {
		return switch (refusal.phase()) {
			case RESPONSE, TOOL_CALL -> "answer";
			case TOOL_RESULT -> "tool result";
			case DOCUMENT -> "document";
			case TOOL_DEFINITION -> "tool definition";
			case PROMPT -> "prompt";
		};
	}

}
