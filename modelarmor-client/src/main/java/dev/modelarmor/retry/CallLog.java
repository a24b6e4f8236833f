package dev.modelarmor.retry;

import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.spi.LoggingEventBuilder;

/**
 * Builds the log lines the starter writes about a Model Armor call: the readable message, and beside
 * it SLF4J 2 key-values (so that Spring Boot's structured logging, ECS, Logstash or GELF, puts them in
 * fields of their own): {@code call_id}, {@code operation}, {@code template}, {@code location}, {@code phase},
 * {@code outcome}, {@code status}, {@code attempts}. A field whose value is not known is left out. The
 * one place such lines are built, so that the blocking and the asynchronous call paths log alike.
 *
 * <p>Values are names, numbers and statuses only: never a prompt, an answer or a token.
 */
public final class CallLog {

	private static final HexFormat HEX = HexFormat.of();

	private final LoggingEventBuilder event;

	private CallLog(LoggingEventBuilder event) {
		this.event = event;
	}

	/**
	 * A WARN line.
	 * @param logger the logger
	 * @return the line, to add fields to and then {@link #log}
	 */
	public static CallLog warn(Logger logger) {
		return new CallLog(logger.atWarn());
	}

	/**
	 * An INFO line.
	 * @param logger the logger
	 * @return the line, to add fields to and then {@link #log}
	 */
	public static CallLog info(Logger logger) {
		return new CallLog(logger.atInfo());
	}

	/**
	 * A DEBUG line.
	 * @param logger the logger
	 * @return the line, to add fields to and then {@link #log}
	 */
	public static CallLog debug(Logger logger) {
		return new CallLog(logger.atDebug());
	}

	/**
	 * The call's id, operation, template and the template's location.
	 * @param call the call
	 * @return this line
	 */
	public CallLog call(Call call) {
		callId(call.id());
		field("operation", call.operation());
		field("template", call.template());
		return field("location", call.location());
	}

	/**
	 * The call's id alone, when the line does not know the call otherwise.
	 * @param callId the id, or {@code null} when not known
	 * @return this line
	 */
	public CallLog callId(@Nullable String callId) {
		return field("call_id", callId);
	}

	/**
	 * The operation, e.g. {@code sanitizeUserPrompt}.
	 * @param operation the operation, or {@code null} when not known
	 * @return this line
	 */
	public CallLog operation(@Nullable String operation) {
		return field("operation", operation);
	}

	/**
	 * The side of the guarded call that was screened.
	 * @param phase the phase, e.g. {@code PROMPT}, or {@code null} when not known
	 * @return this line
	 */
	public CallLog phase(@Nullable Object phase) {
		return field("phase", (phase != null) ? phase.toString() : null);
	}

	/**
	 * How the call ended.
	 * @param outcome the outcome
	 * @return this line
	 */
	public CallLog outcome(CallOutcome outcome) {
		return field("outcome", outcome.tag());
	}

	/**
	 * How the call or the screening ended, for outcomes outside {@link CallOutcome} (e.g. {@code input_rejected}).
	 * @param outcome the outcome's tag
	 * @return this line
	 */
	public CallLog outcome(String outcome) {
		return field("outcome", outcome);
	}

	/**
	 * The status of the last attempt, as the {@code status} tag of the meters says it.
	 * @param status e.g. {@code 503} or {@code io_error}, or {@code null} when not known
	 * @return this line
	 */
	public CallLog status(@Nullable String status) {
		return field("status", status);
	}

	/**
	 * The HTTP attempts made so far.
	 * @param attempts the attempts
	 * @return this line
	 */
	public CallLog attempts(int attempts) {
		this.event.addKeyValue("attempts", attempts);
		return this;
	}

	/**
	 * Any other field, e.g. {@code state}.
	 * @param key the field's name, in snake case
	 * @param value its value (never content), or {@code null} (or blank text) to leave it out
	 * @return this line
	 */
	public CallLog field(String key, @Nullable Object value) {
		if (value != null && !(value instanceof String text && text.isBlank())) {
			this.event.addKeyValue(key, value);
		}
		return this;
	}

	/**
	 * Writes the line; the message is made only when the level is enabled.
	 * @param message the readable message
	 */
	public void log(Supplier<String> message) {
		this.event.setMessage(message);
		this.event.log();
	}

	/**
	 * Writes the line.
	 * @param message the readable message
	 */
	public void log(String message) {
		this.event.log(message);
	}

	/**
	 * The HTTP status of a failed attempt, as the {@code status} field says it.
	 * @param failure the attempt's failure, or {@code null}
	 * @return e.g. {@code 503}, or {@code null} when the failure was not an HTTP answer
	 */
	public static @Nullable String statusOf(@Nullable Throwable failure) {
		return (failure instanceof HttpFailure http) ? String.valueOf(http.statusCode()) : null;
	}

	/**
	 * A new call id: 16 hex digits, random, to find every line of one call.
	 * @return the id
	 */
	public static String newCallId() {
		return HEX.toHexDigits(ThreadLocalRandom.current().nextLong());
	}

	/**
	 * What names one Model Armor call in its log lines, made once when the call starts.
	 *
	 * @param id the call id, from {@link #newCallId()}
	 * @param operation the operation, e.g. {@code sanitizeUserPrompt}, or {@code null} when not known
	 * @param template the template id, or {@code null} when the call names none
	 * @param location the template's location, or {@code null} when not known
	 */
	public record Call(String id, @Nullable String operation, @Nullable String template, @Nullable String location) {

		/**
		 * Names a call whose location is not known.
		 * @param id the call id
		 * @param operation the operation, or {@code null} when not known
		 * @param template the template id, or {@code null}
		 */
		public Call(String id, @Nullable String operation, @Nullable String template) {
			this(id, operation, template, null);
		}

		/**
		 * A call starting now, with a new id.
		 * @param operation the operation, or {@code null} when not known
		 * @param template the template id, or {@code null}
		 * @return the call
		 */
		public static Call start(@Nullable String operation, @Nullable String template) {
			return new Call(newCallId(), operation, template, null);
		}

		/**
		 * A call starting now, with a new id, to a template in a location: when tenants' templates live in
		 * several locations, its lines say which.
		 * @param operation the operation, or {@code null} when not known
		 * @param template the template id, or {@code null}
		 * @param location the template's location, or {@code null} when not known
		 * @return the call
		 */
		public static Call start(@Nullable String operation, @Nullable String template, @Nullable String location) {
			return new Call(newCallId(), operation, template, location);
		}

	}

}
