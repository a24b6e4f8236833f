package dev.modelarmor.screening;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import dev.modelarmor.client.DataItem;
import dev.modelarmor.client.SanitizationResult;
import dev.modelarmor.screening.media.UnscreenableMedia;
import org.jspecify.annotations.Nullable;

/**
 * What one screening means for the call it guards, as the {@link ScreeningDecider} decides it: go on
 * ({@link Pass}), go on with de-identified text ({@link Deidentified}) or, for an image, with its redacted
 * image ({@link Redacted}), or stop ({@link Refusal}: a match
 * that blocks, screening that could not complete with fail-open off, or input that Model Armor refused).
 * Each integration turns a refusal into its own answer: a {@code @ModelArmorGuarded} method throws
 * {@link Refusal#exception()}, the Spring AI advisor answers with its refusal or throws it.
 */
public sealed interface ScreeningDecision
		permits ScreeningDecision.Pass, ScreeningDecision.Deidentified, ScreeningDecision.Redacted,
		ScreeningDecision.Refusal {

	/** The decision to go on unchanged. */
	Pass PASS = new Pass();

	/**
	 * One decision from the screenings of a message's parts (its text and each image or document): the first
	 * refusal or failure as soon as it comes, the other screenings cancelled, or, once every part passed, the
	 * decisions in the order given.
	 * @param decisions the screenings of the parts
	 * @return the decisions in order, or the first refusal alone
	 */
	static CompletableFuture<List<ScreeningDecision>> firstRefusalOrAll(
			List<CompletableFuture<ScreeningDecision>> decisions) {
		CompletableFuture<List<ScreeningDecision>> decided = new CompletableFuture<>();
		if (decisions.isEmpty()) {
			decided.complete(List.of());
			return decided;
		}
		AtomicInteger pending = new AtomicInteger(decisions.size());
		for (CompletableFuture<ScreeningDecision> decision : decisions) {
			decision.whenComplete((made, failure) -> {
				if (failure != null || made instanceof Refusal) {
					boolean first = (failure != null) ? decided.completeExceptionally(failure)
							: decided.complete(List.of(made));
					if (first) {
						decisions.forEach((other) -> other.cancel(true));
					}
				}
				else if (pending.decrementAndGet() == 0) {
					decided.complete(decisions.stream().map(CompletableFuture::join).toList());
				}
			});
		}
		return decided;
	}

	/**
	 * Go on unchanged: nothing matched, a match was only logged, or screening could not complete and
	 * fail-open let the call through.
	 */
	record Pass() implements ScreeningDecision {
	}

	/**
	 * Go on with Sensitive Data Protection's de-identified text in place of the screened text.
	 *
	 * @param text the de-identified text
	 */
	record Deidentified(String text) implements ScreeningDecision {
	}

	/**
	 * Go on with Sensitive Data Protection's redacted image in place of the screened image. Decided only for
	 * a request whose item is an image and that is {@link ScreeningRequest#replaceable() replaceable}, so
	 * that no caller of text ever sees it.
	 *
	 * @param image the redacted image, an {@code IMAGE} item that is a valid JPEG, PNG or BMP image
	 */
	record Redacted(DataItem image) implements ScreeningDecision {
	}

	/**
	 * Stop the call. Neither the decision nor its exception carries any of the screened content.
	 */
	sealed interface Refusal extends ScreeningDecision permits Blocked, NotScreened, Rejected {

		/**
		 * Which side was refused.
		 * @return the phase
		 */
		Phase phase();

		/**
		 * The exception that reports this refusal to a caller that throws.
		 * @return a new exception
		 */
		RuntimeException exception();

	}

	/**
	 * A filter matched and the match action blocks.
	 *
	 * @param phase which side matched
	 * @param result what Model Armor found
	 */
	record Blocked(Phase phase, SanitizationResult result) implements Refusal {

		@Override
		public ModelArmorViolationException exception() {
			return new ModelArmorViolationException(this.phase, this.result);
		}

	}

	/**
	 * Screening could not complete and fail-open is off: Model Armor failed after its retries, or its
	 * answer gave no usable verdict.
	 *
	 * @param phase which side could not be screened
	 * @param reason why, without any content, e.g. {@code HTTP 503}
	 * @param attempts the HTTP attempts made, or 0 when Model Armor answered
	 * @param status the HTTP status of the last attempt ({@code 503}, or {@code 200} for an answer without
	 * a usable verdict), {@code io_error} when it got no answer, or {@code none} when nothing was sent
	 * @param cause the failure of the screening call, if any
	 */
	record NotScreened(Phase phase, String reason, int attempts, String status, @Nullable Throwable cause)
			implements Refusal {

		@Override
		public ModelArmorNotScreenedException exception() {
			String detail = (this.attempts > 0) ? this.reason + " after " + this.attempts + " attempt(s)" : this.reason;
			return new ModelArmorNotScreenedException(this.phase, detail, this.attempts, this.cause);
		}

	}

	/**
	 * Model Armor refused the text itself (too large, or answered HTTP 400 or 413), or the prompt holds
	 * media it cannot screen ({@link UnscreenableMedia#BLOCK}): input the caller controls, blocked whatever
	 * {@code modelarmor.screening.fail-open} says.
	 *
	 * @param phase which side was refused
	 * @param reason why, without any content, e.g. {@code HTTP 400}
	 * @param tooLarge whether the text was larger than Model Armor screens
	 * @param cause the failure of the screening call, or {@code null} for media that was never sent
	 */
	record Rejected(Phase phase, String reason, boolean tooLarge, @Nullable Throwable cause) implements Refusal {

		@Override
		public ModelArmorInputRejectedException exception() {
			return new ModelArmorInputRejectedException(this.phase, this.reason, this.tooLarge, this.cause);
		}

	}

}
