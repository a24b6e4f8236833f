package dev.modelarmor.samples.standin;

import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Google's error body, {@code {"error": {"code": 503, "message": "...", "status": "UNAVAILABLE"}}}, as the
 * stand-in sends it with an injected fault or an unknown method.
 */
final class GoogleErrorJson {

	private GoogleErrorJson() {
	}

	/**
	 * The error body for an HTTP status.
	 * @param code the HTTP status
	 * @return the JSON
	 */
	static ObjectNode of(int code) {
		ObjectNode body = JsonNodeFactory.instance.objectNode();
		body.putObject("error").put("code", code).put("message", message(code)).put("status", status(code));
		return body;
	}

	private static String status(int code) {
		return switch (code) {
			case 400 -> "INVALID_ARGUMENT";
			case 401 -> "UNAUTHENTICATED";
			case 403 -> "PERMISSION_DENIED";
			case 404 -> "NOT_FOUND";
			case 429 -> "RESOURCE_EXHAUSTED";
			case 500 -> "INTERNAL";
			case 501 -> "UNIMPLEMENTED";
			case 502, 503 -> "UNAVAILABLE";
			case 504 -> "DEADLINE_EXCEEDED";
			default -> "UNKNOWN";
		};
	}

	private static String message(int code) {
		return switch (code) {
			case 404 -> "Method not found.";
			case 429 -> "Resource has been exhausted (e.g. check quota).";
			case 500 -> "Internal error encountered.";
			case 502, 503 -> "The service is currently unavailable.";
			case 504 -> "The request timed out.";
			default -> "Fault injected by the local Model Armor stand-in.";
		};
	}

}
