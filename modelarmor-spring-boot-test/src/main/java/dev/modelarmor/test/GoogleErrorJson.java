package dev.modelarmor.test;

import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Google's error body, {@code {"error": {"code": 503, "message": "...", "status": "UNAVAILABLE"}}}, as the
 * stand-in sends it with a fault or a request it does not serve.
 */
final class GoogleErrorJson {

	private static final JsonMapper MAPPER = JsonMapper.shared();

	private GoogleErrorJson() {
	}

	/**
	 * The error body for an HTTP status, with the message Google's front end sends for it.
	 * @param code the HTTP status
	 * @return the JSON
	 */
	static ObjectNode of(int code) {
		return of(code, message(code));
	}

	/**
	 * The error body for an HTTP status with a message of one's own.
	 * @param code the HTTP status
	 * @param message the message
	 * @return the JSON
	 */
	static ObjectNode of(int code, String message) {
		ObjectNode body = MAPPER.createObjectNode();
		body.putObject("error").put("code", code).put("message", message).put("status", status(code));
		return body;
	}

	/**
	 * The error body as bytes.
	 * @param code the HTTP status
	 * @param message the message
	 * @return UTF-8 JSON
	 */
	static byte[] bytes(int code, String message) {
		return MAPPER.writeValueAsBytes(of(code, message));
	}

	/**
	 * The {@code google.rpc.Code} name that Google's front end sends with an HTTP status.
	 * @param code the HTTP status
	 * @return the name, {@code UNKNOWN} for a status without one
	 */
	static String status(int code) {
		return switch (code) {
			case 400 -> "INVALID_ARGUMENT";
			case 401 -> "UNAUTHENTICATED";
			case 403 -> "PERMISSION_DENIED";
			case 404 -> "NOT_FOUND";
			case 409 -> "ALREADY_EXISTS";
			case 413 -> "INVALID_ARGUMENT";
			case 429 -> "RESOURCE_EXHAUSTED";
			case 500 -> "INTERNAL";
			case 501 -> "UNIMPLEMENTED";
			case 502, 503 -> "UNAVAILABLE";
			case 504 -> "DEADLINE_EXCEEDED";
			default -> "UNKNOWN";
		};
	}

	static String message(int code) {
		return switch (code) {
			case 404 -> "Method not found.";
			case 429 -> "Resource has been exhausted (e.g. check quota).";
			case 500 -> "Internal error encountered.";
			case 502, 503 -> "The service is currently unavailable.";
			case 504 -> "The request timed out.";
			default -> "Fault injected by the Model Armor stand-in.";
		};
	}

}
