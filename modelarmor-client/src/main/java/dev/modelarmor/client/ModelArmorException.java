package dev.modelarmor.client;

import java.util.Optional;

import dev.modelarmor.client.internal.CallFailures;
import dev.modelarmor.client.internal.ServerText;
import dev.modelarmor.retry.CallOutcome;
import org.jspecify.annotations.Nullable;

/**
 * A Model Armor call that did not produce a result: the service could not be reached, answered with
 * an error, or answered with something that is not a valid result.
 *
 * <p>Messages never contain a prompt, a model response or a credential. Since they may quote what a
 * server sent, every message is kept to one printable line: control characters (line breaks, ANSI
 * escapes), bidirectional and other format marks are replaced by spaces, and a message is cut after
 * 1,000 characters.
 */
public class ModelArmorException extends RuntimeException {

	static {
		CallFailures.install(new CallFailures() {

			@Override
			protected ModelArmorException identifiedAs(ModelArmorException failure, String callId,
					@Nullable String template) {
				return failure.identifiedAs(callId, template);
			}

			@Override
			protected ModelArmorException endedWith(ModelArmorException failure, CallOutcome outcome) {
				return failure.endedWith(outcome);
			}

			@Override
			protected ModelArmorApiException templateNotFound(ModelArmorApiException failure, String template) {
				return failure.templateNotFound(template);
			}

		});
	}

	/** The most characters of a message. */
	static final int MAX_MESSAGE_LENGTH = 1_000;

	private final int attempts;

	private final @Nullable CallOutcome outcome;

	/** Set once, by the client, before the exception that ends a call is thrown. */
	private @Nullable String callId;

	/** Set with the call id: the template the call named, as its log lines' {@code template} field. */
	private @Nullable String template;

	/**
	 * Creates an exception.
	 * @param message what went wrong, without any screened content
	 * @param attempts the HTTP attempts made for the call, counting this one
	 * @param cause the underlying failure, if any
	 */
	public ModelArmorException(String message, int attempts, @Nullable Throwable cause) {
		this(message, attempts, cause, null);
	}

	/**
	 * Creates an exception whose outcome is known when it is made.
	 * @param message what went wrong, without any screened content
	 * @param attempts the HTTP attempts made for the call, counting this one
	 * @param cause the underlying failure, if any
	 * @param outcome how the call ended, or {@code null} when the call is still going on
	 */
	public ModelArmorException(String message, int attempts, @Nullable Throwable cause,
			@Nullable CallOutcome outcome) {
		super(ServerText.printable(message, MAX_MESSAGE_LENGTH), cause);
		this.attempts = attempts;
		this.outcome = outcome;
	}

	/**
	 * Creates an exception for a failure that made no HTTP attempt.
	 * @param message what went wrong, without any screened content
	 */
	public ModelArmorException(String message) {
		this(message, 0, null);
	}

	/**
	 * The HTTP attempts made for the call, retries included.
	 * @return the number of attempts
	 */
	public int attempts() {
		return this.attempts;
	}

	/**
	 * How the call ended, in the vocabulary that log lines and metrics use: for example
	 * {@link CallOutcome#DEADLINE_EXCEEDED} when retries ran out of time.
	 * @return the outcome, or empty for a failure that happened outside a call
	 */
	public Optional<CallOutcome> outcome() {
		return Optional.ofNullable(this.outcome);
	}

	/**
	 * The id that the call's log lines carry in their {@code call_id} field.
	 * @return the id, or empty for a failure that happened outside a call
	 */
	public Optional<String> callId() {
		return Optional.ofNullable(this.callId);
	}

	/**
	 * The template the call named, as its log lines' {@code template} field says it.
	 * @return the template id, or empty for a failure outside a call or a call that named none
	 */
	public Optional<String> template() {
		return Optional.ofNullable(this.template);
	}

	/** Names the call this exception ends; called before it is thrown. */
	ModelArmorException identifiedAs(String callId, @Nullable String template) {
		this.callId = callId;
		this.template = template;
		return this;
	}

	/**
	 * This failure as the end of its call: the same exception, made once more with the call's outcome,
	 * so that no exception is changed after it was thrown. Subclasses that the client throws from an
	 * attempt make a copy of their own type.
	 * @param outcome how the call ended
	 * @return the exception to throw
	 */
	ModelArmorException endedWith(CallOutcome outcome) {
		return new ModelArmorException(this, outcome);
	}

	/**
	 * A copy of a failure that ended its call: the same message (already printable), cause, attempts,
	 * stack trace and suppressed exceptions, with the call's outcome.
	 * @param failure the failure of the call's last attempt
	 * @param outcome how the call ended
	 */
	ModelArmorException(ModelArmorException failure, CallOutcome outcome) {
		super(failure.getMessage(), failure.getCause());
		this.attempts = failure.attempts;
		this.outcome = outcome;
		this.callId = failure.callId;
		this.template = failure.template;
		setStackTrace(failure.getStackTrace());
		for (Throwable suppressed : failure.getSuppressed()) {
			addSuppressed(suppressed);
		}
	}

}
