package dev.modelarmor.test;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.modelarmor.test.ReceivedRequest.Operation;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads a sanitize request as the Model Armor REST API receives it:
 * {@code POST /v1/projects/{project}/locations/{location}/templates/{template}:sanitizeUserPrompt} (or
 * {@code :sanitizeModelResponse}) with a {@code SanitizeUserPromptRequest} (or
 * {@code SanitizeModelResponseRequest}) body.
 */
final class SanitizeRequests {

	private static final Pattern PATH = Pattern.compile(
			"/v1/projects/([^/]+)/locations/([^/]+)/templates/([^/:]+):(sanitizeUserPrompt|sanitizeModelResponse)");

	/** Byte item types whose content is text, which the stand-in's rules read. */
	private static final Set<String> TEXT_BYTE_TYPES = Set.of("PLAINTEXT_UTF8", "TXT", "CSV");

	private SanitizeRequests() {
	}

	/**
	 * Whether a request goes to a sanitize method.
	 * @param method the HTTP method
	 * @param path the decoded path
	 * @return the path's parts, or {@code null} for any other request
	 */
	static @Nullable Matcher sanitizePath(String method, String path) {
		Matcher matcher = PATH.matcher(path);
		return ("POST".equals(method) && matcher.matches()) ? matcher : null;
	}

	/**
	 * Reads a sanitize request.
	 * @param path the matched path
	 * @param body the request body
	 * @return the request
	 * @throws IllegalArgumentException when the body is not such a request
	 */
	static ReceivedRequest read(Matcher path, byte[] body) {
		Operation operation = "sanitizeUserPrompt".equals(path.group(4)) ? Operation.SANITIZE_USER_PROMPT
				: Operation.SANITIZE_MODEL_RESPONSE;
		JsonNode json;
		try {
			json = JsonMapper.shared().readTree(body);
		}
		catch (JacksonException ex) {
			throw new IllegalArgumentException("Invalid JSON payload received.", ex);
		}
		if (!json.isObject()) {
			throw new IllegalArgumentException("Invalid JSON payload received: not an object.");
		}
		boolean prompt = operation == Operation.SANITIZE_USER_PROMPT;
		JsonNode data = json.path(prompt ? "userPromptData" : "modelResponseData");
		if (!data.isObject()) {
			throw new IllegalArgumentException(
					"Missing required field " + (prompt ? "user_prompt_data" : "model_response_data") + ".");
		}
		JsonNode userPrompt = json.path("userPrompt");
		return new ReceivedRequest(operation, path.group(1), path.group(2), path.group(3), text(data),
				userPrompt.isString() ? userPrompt.stringValue() : null);
	}

	/** The text of a DataItem: {@code text}, or {@code byteItem} when it holds text; else empty. */
	private static String text(JsonNode dataItem) {
		JsonNode text = dataItem.path("text");
		if (text.isString()) {
			return text.stringValue();
		}
		JsonNode bytes = dataItem.path("byteItem");
		if (TEXT_BYTE_TYPES.contains(bytes.path("byteDataType").stringValue(""))) {
			try {
				return new String(Base64.getMimeDecoder().decode(bytes.path("byteData").stringValue("")),
						StandardCharsets.UTF_8);
			}
			catch (IllegalArgumentException ex) {
				throw new IllegalArgumentException("Invalid value at 'byte_item.byte_data': not base64.", ex);
			}
		}
		return "";
	}

}
