package dev.modelarmor.client.internal;

import java.io.IOException;
import java.time.Instant;

import dev.modelarmor.client.ModelArmorException;
import dev.modelarmor.client.internal.transport.BufferedJdkClientHttpRequest;
import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamLocation;

import org.springframework.http.client.ClientHttpResponse;

/**
 * Reads Model Armor's answer to one attempt, on either path: at most {@link BufferedJdkClientHttpRequest#MAX_ANSWER_BYTES} bytes,
 * an error status translated by {@link ApiErrorTranslator}, a success parsed with {@link ModelArmorJson}
 * and checked for what a valid answer is.
 */
final class AnswerReader {

	private AnswerReader() {
	}

	static <T> T read(ClientHttpResponse response, Class<T> answerType, String expected,
			int attempt, CallProgress progress) throws IOException {
		int status = response.getStatusCode().value();
		progress.answeredWith(status);
		byte[] body = response.getBody().readNBytes(BufferedJdkClientHttpRequest.MAX_ANSWER_BYTES + 1);
		if (body.length > BufferedJdkClientHttpRequest.MAX_ANSWER_BYTES) {
			throw new ModelArmorException("Model Armor answered HTTP " + status + " with a body larger than "
					+ BufferedJdkClientHttpRequest.MAX_ANSWER_BYTES + " bytes; it was not read further", attempt, null);
		}
		if (status < 200 || status > 299) {
			throw ApiErrorTranslator.translate(status, response.getHeaders(), body, attempt,
					progress.earlierAttemptOutcomeUnknown(), Instant.now(), progress.template());
		}
		try {
			T parsed = ModelArmorJson.readerFor(answerType).readValue(body);
			String problem = (parsed == null) ? "with an empty body where " + expected + " was expected"
					: (parsed instanceof ApiAnswer answer) ? answer.problem() : null;
			if (problem != null) {
				throw new ModelArmorException("Model Armor answered HTTP " + status + " " + problem, attempt, null);
			}
			return parsed;
		}
		catch (JacksonException ex) {
			throw new ModelArmorException("Model Armor answered HTTP " + status + " with a body that is not "
					+ expected + ": " + describe(ex, body), attempt, null);
		}
	}

	/** Where the body went wrong, without quoting it: it may echo screened content. */
	private static String describe(JacksonException ex, byte[] body) {
		if (body.length == 0) {
			return "the body is empty";
		}
		TokenStreamLocation where = ex.getLocation();
		String position = (where != null && where.getLineNr() > 0)
				? " at line " + where.getLineNr() + ", column " + where.getColumnNr() : "";
		return ex.getClass().getSimpleName() + position;
	}

}
