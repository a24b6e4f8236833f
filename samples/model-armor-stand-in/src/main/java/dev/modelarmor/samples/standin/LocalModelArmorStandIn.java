package dev.modelarmor.samples.standin;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Set;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * A local <b>stand-in</b> for the Model Armor REST API, <b>not Model Armor</b>: it answers
 * {@code POST /v1/projects/{project}/locations/{location}/templates/{template}:sanitizeUserPrompt} and
 * {@code :sanitizeModelResponse} with the real response JSON, decided by the simple rules of
 * {@link StandInRules}, so that a sample runs without a Google Cloud account. Registered by
 * {@link StandInConfiguration} in profile {@code local}, where the application's Model Armor endpoint
 * points at itself. Queued faults
 * ({@link FaultQueue}) are answered first, with Google's error body. Logs name the method and the
 * outcome, never the text.
 */
@RestController
public class LocalModelArmorStandIn {

	private static final Log logger = LogFactory.getLog(LocalModelArmorStandIn.class);

	private static final String USER_PROMPT = "sanitizeUserPrompt";

	private static final String MODEL_RESPONSE = "sanitizeModelResponse";

	private static final Set<String> TEXT_BYTE_TYPES = Set.of("PLAINTEXT_UTF8", "TXT", "CSV");

	private final StandInRules rules;

	private final FaultQueue faults;

	private final StandInStats stats;

	LocalModelArmorStandIn(StandInProperties properties, FaultQueue faults, StandInStats stats) {
		this.rules = new StandInRules(properties.maliciousUrls());
		this.faults = faults;
		this.stats = stats;
	}

	/**
	 * Answers a sanitize call. The path segment {@code {template}:{method}} arrives whole and is split
	 * here.
	 * @param templateCall {@code template:method}
	 * @param body the request
	 * @return the sanitize response, an injected fault, or 404 for another method
	 */
	@PostMapping("/v1/projects/{project}/locations/{location}/templates/{templateCall}")
	public ResponseEntity<ObjectNode> sanitize(@PathVariable String templateCall, @RequestBody JsonNode body) {
		String method = templateCall.substring(templateCall.lastIndexOf(':') + 1);
		if (!templateCall.contains(":") || !(USER_PROMPT.equals(method) || MODEL_RESPONSE.equals(method))) {
			return ResponseEntity.status(404).body(GoogleErrorJson.of(404));
		}
		this.stats.record(method);
		Integer fault = this.faults.next();
		if (fault != null) {
			logger.info(String.format("Stand-in answered an injected fault: method=%s status=%d", method, fault));
			return ResponseEntity.status(fault).body(GoogleErrorJson.of(fault));
		}
		String text = text(body.path(USER_PROMPT.equals(method) ? "userPromptData" : "modelResponseData"));
		StandInFindings findings = this.rules.inspect(text);
		ObjectNode response = SanitizeResponseJson.of(findings);
		if (logger.isInfoEnabled()) {
			logger.info(String.format("Stand-in screened: method=%s filterMatchState=%s", method,
					findings.matchFound() ? "MATCH_FOUND" : "NO_MATCH_FOUND"));
		}
		return ResponseEntity.ok(response);
	}

	/** The text of a DataItem: {@code text}, or {@code byteItem} when it holds text; else empty. */
	private static String text(JsonNode dataItem) {
		JsonNode text = dataItem.path("text");
		if (text.isString()) {
			return text.stringValue();
		}
		JsonNode bytes = dataItem.path("byteItem");
		if (TEXT_BYTE_TYPES.contains(bytes.path("byteDataType").stringValue(""))) {
			return new String(Base64.getDecoder().decode(bytes.path("byteData").stringValue("")),
					StandardCharsets.UTF_8);
		}
		return "";
	}

}
