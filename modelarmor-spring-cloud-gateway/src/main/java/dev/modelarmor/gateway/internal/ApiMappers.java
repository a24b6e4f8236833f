package dev.modelarmor.gateway.internal;

import java.util.Locale;

/**
 * The mapper of each API, by the name a route gives it.
 */
final class ApiMappers {

	private static final ApiMapper OPENAI = new OpenAiMapper();

	private static final ApiMapper GEMINI = new GeminiMapper();

	private static final ApiMapper ANTHROPIC = new AnthropicMapper();

	private ApiMappers() {
	}

	static ApiMapper of(String api) {
		return switch (api.toLowerCase(Locale.ROOT)) {
			case "openai" -> OPENAI;
			case "gemini" -> GEMINI;
			case "anthropic" -> ANTHROPIC;
			default -> throw new IllegalArgumentException("api must be openai, gemini or anthropic");
		};
	}

}
