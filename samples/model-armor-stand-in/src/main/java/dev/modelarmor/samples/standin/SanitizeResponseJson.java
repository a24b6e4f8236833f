package dev.modelarmor.samples.standin;

import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Writes {@link StandInFindings} as Model Armor's {@code sanitizeUserPrompt} / {@code sanitizeModelResponse}
 * answer: {@code {"sanitizationResult": {...}}} with every filter of a template that has RAI, SDP
 * (de-identify), prompt injection and jailbreak, malicious URI and CSAM filters; filters that found
 * nothing say {@code NO_MATCH_FOUND}. The invocation always succeeds.
 */
final class SanitizeResponseJson {

	private static final String MATCH = "MATCH_FOUND";

	private static final String NO_MATCH = "NO_MATCH_FOUND";

	private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

	private SanitizeResponseJson() {
	}

	/**
	 * The answer for what the rules found.
	 * @param findings the findings
	 * @return the response JSON
	 */
	static ObjectNode of(StandInFindings findings) {
		ObjectNode filters = NODES.objectNode();
		filters.set("rai", rai());
		filters.set("sdp", sdp(findings));
		filters.set("pi_and_jailbreak", piAndJailbreak(findings.jailbreak()));
		filters.set("malicious_uris", maliciousUris(findings));
		filters.set("csam", wrap("csamFilterFilterResult", executed(false)));
		ObjectNode result = NODES.objectNode();
		result.put("filterMatchState", findings.matchFound() ? MATCH : NO_MATCH);
		result.put("invocationResult", "SUCCESS");
		result.set("filterResults", filters);
		result.set("sanitizationMetadata", NODES.objectNode());
		ObjectNode response = NODES.objectNode();
		response.set("sanitizationResult", result);
		return response;
	}

	private static ObjectNode rai() {
		ObjectNode types = NODES.objectNode();
		for (String type : new String[] { "sexually_explicit", "hate_speech", "harassment", "dangerous" }) {
			types.putObject(type).put("matchState", NO_MATCH);
		}
		ObjectNode rai = executed(false);
		rai.set("raiFilterTypeResults", types);
		return wrap("raiFilterResult", rai);
	}

	private static ObjectNode sdp(StandInFindings findings) {
		ObjectNode deidentify = executed(findings.sensitiveData());
		String text = findings.deidentifiedText();
		if (text != null) {
			deidentify.putObject("data").put("text", text);
			ArrayNode infoTypes = deidentify.putArray("infoTypes");
			findings.infoTypes().forEach(infoTypes::add);
		}
		return wrap("sdpFilterResult", NODES.objectNode().set("deidentifyResult", deidentify));
	}

	private static ObjectNode piAndJailbreak(boolean matched) {
		ObjectNode result = executed(matched);
		if (matched) {
			result.put("confidenceLevel", "HIGH");
		}
		return wrap("piAndJailbreakFilterResult", result);
	}

	private static ObjectNode maliciousUris(StandInFindings findings) {
		ObjectNode result = executed(!findings.maliciousUris().isEmpty());
		if (!findings.maliciousUris().isEmpty()) {
			ArrayNode items = result.putArray("maliciousUriMatchedItems");
			for (StandInFindings.UriMatch match : findings.maliciousUris()) {
				ObjectNode item = items.addObject().put("uri", match.uri());
				// int64 fields travel as JSON strings in the proto3 JSON mapping.
				item.putArray("locations")
					.addObject()
					.put("start", Integer.toString(match.start()))
					.put("end", Integer.toString(match.end()));
			}
		}
		return wrap("maliciousUriFilterResult", result);
	}

	private static ObjectNode executed(boolean matched) {
		return NODES.objectNode().put("executionState", "EXECUTION_SUCCESS").put("matchState",
				matched ? MATCH : NO_MATCH);
	}

	private static ObjectNode wrap(String kind, ObjectNode result) {
		return NODES.objectNode().set(kind, result);
	}

}
