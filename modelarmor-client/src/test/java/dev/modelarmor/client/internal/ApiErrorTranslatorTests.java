package dev.modelarmor.client.internal;

import java.nio.charset.StandardCharsets;
import java.time.Instant;

import dev.modelarmor.client.ModelArmorApiException;
import dev.modelarmor.retry.CallOutcome;
import dev.modelarmor.retry.internal.FailureClassifier;
import org.junit.jupiter.api.Test;

import org.springframework.http.HttpHeaders;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A 404 of a call on a template says that the template was not found, naming it.
 */
class ApiErrorTranslatorTests {

	private static final byte[] NOT_FOUND = "{\"error\":{\"code\":404,\"message\":\"Requested entity was not found.\",\"status\":\"NOT_FOUND\"}}"
		.getBytes(StandardCharsets.UTF_8);

	@Test
	void aMissingTemplateIsNamed() {
		ModelArmorApiException ex = ApiErrorTranslator.translate(404, new HttpHeaders(), NOT_FOUND, 1, false,
				Instant.EPOCH, "my-template");
		assertThat(ex.getMessage()).isEqualTo("Model Armor answered HTTP 404 NOT_FOUND (template not found: "
				+ "my-template): Requested entity was not found.");
		assertThat(ex.statusCode()).isEqualTo(404);
		// the WARN line of a refused call says it too, also once the call ended with it
		assertThat(FailureClassifier.describe(ex)).isEqualTo("HTTP 404 (template not found: my-template)");
		assertThat(FailureClassifier.describe(CallFailures.get().endedWith(ex, CallOutcome.NON_RETRYABLE)))
			.isEqualTo("HTTP 404 (template not found: my-template)");
	}

	@Test
	void aCallOnNoTemplateSaysNothingOfTemplates() {
		ModelArmorApiException ex = ApiErrorTranslator.translate(404, new HttpHeaders(), NOT_FOUND, 1, false,
				Instant.EPOCH, null);
		assertThat(ex.getMessage()).isEqualTo("Model Armor answered HTTP 404 NOT_FOUND: Requested entity was not found.");
		assertThat(FailureClassifier.describe(ex)).isEqualTo("HTTP 404");
	}

	@Test
	void otherStatusesSayNothingOfTemplates() {
		ModelArmorApiException ex = ApiErrorTranslator.translate(403, new HttpHeaders(), new byte[0], 1, false,
				Instant.EPOCH, "my-template");
		assertThat(ex.getMessage()).isEqualTo("Model Armor answered HTTP 403");
		assertThat(FailureClassifier.describe(ex)).isEqualTo("HTTP 403");
	}

}
