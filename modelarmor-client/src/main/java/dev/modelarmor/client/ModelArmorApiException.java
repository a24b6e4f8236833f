package dev.modelarmor.client;

import java.time.Duration;
import java.util.Optional;

import dev.modelarmor.client.internal.ServerText;
import dev.modelarmor.retry.CallOutcome;
import dev.modelarmor.retry.HttpFailure;
import org.jspecify.annotations.Nullable;

/**
 * Model Armor answered with an HTTP error. The message is the one from Google's error body
 * ({@code {"error": {"code", "message", "status", "details"}}}) when there is one, made printable and
 * cut short like every {@link ModelArmorException} message.
 */
public class ModelArmorApiException extends ModelArmorException implements HttpFailure {

	private final int statusCode;

	private final @Nullable String status;

	private final @Nullable Duration retryAfter;

	private final boolean earlierAttemptOutcomeUnknown;

	/** The template a 404 said was not found: configuration, never content. */
	private @Nullable String missingTemplate;

	/**
	 * Creates an exception.
	 * @param message what went wrong, without any screened content
	 * @param statusCode the HTTP status code
	 * @param status the Google error status such as {@code INVALID_ARGUMENT}, if the body had one
	 * @param retryAfter the server's hint for when to retry, if any
	 * @param attempts the HTTP attempts made for the call, counting this one
	 */
	public ModelArmorApiException(String message, int statusCode, @Nullable String status,
			@Nullable Duration retryAfter, int attempts) {
		this(message, statusCode, status, retryAfter, attempts, false);
	}

	/**
	 * Creates an exception that may follow an attempt whose outcome is unknown.
	 * @param message what went wrong, without any screened content
	 * @param statusCode the HTTP status code
	 * @param status the Google error status such as {@code INVALID_ARGUMENT}, if the body had one
	 * @param retryAfter the server's hint for when to retry, if any
	 * @param attempts the HTTP attempts made for the call, counting this one
	 * @param earlierAttemptOutcomeUnknown whether an earlier attempt of the call may have been carried out
	 * although it failed (no answer, or a gateway's 502 or 504)
	 */
	public ModelArmorApiException(String message, int statusCode, @Nullable String status,
			@Nullable Duration retryAfter, int attempts, boolean earlierAttemptOutcomeUnknown) {
		this(message, statusCode, status, retryAfter, attempts, earlierAttemptOutcomeUnknown, null);
	}

	/**
	 * Creates an exception with a cause, for a subclass that refines another answer's exception.
	 * @param message what went wrong, without any screened content
	 * @param statusCode the HTTP status code
	 * @param status the Google error status such as {@code INVALID_ARGUMENT}, if the body had one
	 * @param retryAfter the server's hint for when to retry, if any
	 * @param attempts the HTTP attempts made for the call, counting this one
	 * @param earlierAttemptOutcomeUnknown whether an earlier attempt of the call may have been carried out
	 * although it failed (no answer, or a gateway's 502 or 504)
	 * @param cause the exception this one refines, if any
	 */
	protected ModelArmorApiException(String message, int statusCode, @Nullable String status,
			@Nullable Duration retryAfter, int attempts, boolean earlierAttemptOutcomeUnknown, @Nullable Throwable cause) {
		super(message, attempts, cause);
		this.statusCode = statusCode;
		this.status = ServerText.statusName(status);
		this.retryAfter = retryAfter;
		this.earlierAttemptOutcomeUnknown = earlierAttemptOutcomeUnknown;
	}

	private ModelArmorApiException(ModelArmorApiException failure, CallOutcome outcome) {
		super(failure, outcome);
		this.statusCode = failure.statusCode;
		this.status = failure.status;
		this.retryAfter = failure.retryAfter;
		this.earlierAttemptOutcomeUnknown = failure.earlierAttemptOutcomeUnknown;
		this.missingTemplate = failure.missingTemplate;
	}

	/** Marks this 404 as the answer for a template that does not exist; set once, before it is thrown. */
	ModelArmorApiException templateNotFound(String template) {
		this.missingTemplate = template;
		return this;
	}

	/**
	 * {@code HTTP} and the status code, and for a template that does not exist, which one.
	 * @return e.g. {@code HTTP 404 (template not found: my-template)}
	 */
	@Override
	public String description() {
		String template = this.missingTemplate;
		return (template != null) ? "HTTP " + this.statusCode + " (template not found: "
				+ ServerText.printable(template, 64) + ")" : "HTTP " + this.statusCode;
	}

	@Override
	ModelArmorApiException endedWith(CallOutcome outcome) {
		return new ModelArmorApiException(this, outcome);
	}

	/**
	 * The HTTP status code of the answer.
	 * @return the status code, e.g. {@code 403}
	 */
	@Override
	public int statusCode() {
		return this.statusCode;
	}

	/**
	 * The Google error status, a {@code google.rpc.Code} name.
	 * @return e.g. {@code INVALID_ARGUMENT}, or {@code null} when the body had none or what it had does
	 * not look like a status name ({@code [A-Z_]{1,64}})
	 */
	public @Nullable String status() {
		return this.status;
	}

	/**
	 * The server's hint for when to retry: a {@code Retry-After} header or a {@code RetryInfo} detail.
	 * @return the hint, or empty when the server gave none
	 */
	@Override
	public Optional<Duration> retryAfter() {
		return Optional.ofNullable(this.retryAfter);
	}

	/**
	 * Whether an earlier attempt of the same call failed in a way that Model Armor may still have carried
	 * it out: no answer at all (a timeout, a reset) or a gateway's 502 or 504. What matters for a create
	 * or an update that was retried.
	 * @return {@code true} when an earlier attempt's outcome is unknown
	 */
	public boolean earlierAttemptOutcomeUnknown() {
		return this.earlierAttemptOutcomeUnknown;
	}

}
