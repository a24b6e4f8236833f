package dev.modelarmor.test;

import org.jspecify.annotations.Nullable;

/**
 * A sanitize request that reached the {@link ModelArmorStandIn}: every attempt counts, retries and
 * requests answered with a fault included, and text screened in windows arrives as one request per
 * window.
 *
 * <p>{@link #toString()} shows the operation and the template, not the text.
 *
 * @param operation which method was called
 * @param project the project of the template's resource name
 * @param location the location of the template's resource name
 * @param template the template id
 * @param text the screened text: the prompt, or the model response; for a document, its text when it is
 * a text type ({@code PLAINTEXT_UTF8}, {@code TXT}, {@code CSV}), else empty
 * @param userPrompt the prompt sent along with a model response, or {@code null}
 */
public record ReceivedRequest(Operation operation, String project, String location, String template, String text,
		@Nullable String userPrompt) {

	/**
	 * Whether this request screened a prompt.
	 * @return {@code true} for {@link Operation#SANITIZE_USER_PROMPT}
	 */
	public boolean isPrompt() {
		return this.operation == Operation.SANITIZE_USER_PROMPT;
	}

	@Override
	public String toString() {
		return "ReceivedRequest[operation=" + this.operation + ", template=projects/" + this.project + "/locations/"
				+ this.location + "/templates/" + this.template + ", text=" + this.text.length() + " chars]";
	}

	/**
	 * The sanitize methods of the Model Armor API.
	 */
	public enum Operation {

		/** {@code templates.sanitizeUserPrompt}. */
		SANITIZE_USER_PROMPT("sanitizeUserPrompt"),

		/** {@code templates.sanitizeModelResponse}. */
		SANITIZE_MODEL_RESPONSE("sanitizeModelResponse");

		private final String method;

		Operation(String method) {
			this.method = method;
		}

		/**
		 * The method's name in the REST path, after the template's name and a colon.
		 * @return e.g. {@code sanitizeUserPrompt}
		 */
		public String method() {
			return this.method;
		}

	}

}
