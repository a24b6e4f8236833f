package dev.modelarmor.guard;

import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import dev.modelarmor.client.ModelArmorException;
import dev.modelarmor.client.SanitizationResult;
import dev.modelarmor.retry.CallOutcome;
import dev.modelarmor.retry.FailureClassifier;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * What a screening means for the call it guards, shared by {@link ModelArmorGuarded} methods and other
 * integrations (such as the Spring AI advisor):
 * <ul>
 * <li>no match and every filter ran ({@code SUCCESS}, or {@code PARTIAL} when the template ignores
 * partial failures): go on;</li>
 * <li>a match: the {@link MatchAction} — block with {@link ModelArmorViolationException}, go on with
 * de-identified text (only when SDP is the only matched filter, de-identified text came back and the
 * caller can use it), or log and go on;</li>
 * <li>screening could not complete (Model Armor failed after its retries, or not every filter ran):
 * block with {@link ModelArmorNotScreenedException}, or with fail-open go on with a WARN line.</li>
 * </ul>
 * Every decision is reported to the {@link ScreeningObserver}. Log lines name the caller, the phase and
 * the filters, never the content.
 */
public final class Screener {

	private static final Log logger = LogFactory.getLog(Screener.class);

	private static final Set<String> SDP_ONLY = Set.of("sdp");

	private final BooleanSupplier failOpen;

	private final Supplier<ScreeningObserver> observer;

	/**
	 * Creates a screener.
	 * @param failOpen whether screening that cannot complete lets the call through
	 * @param observer told of every decision
	 */
	public Screener(BooleanSupplier failOpen, Supplier<ScreeningObserver> observer) {
		this.failOpen = failOpen;
		this.observer = observer;
	}

	/**
	 * Screens one side of a call and decides.
	 * @param caller names the guarded code in log lines, e.g. {@code ChatService.chat(String)}
	 * @param phase which side
	 * @param onMatch what a match does
	 * @param replaceable whether the caller can go on with de-identified text
	 * @param call the Model Armor call
	 * @return de-identified text to go on with, or {@code null} to go on unchanged
	 * @throws ModelArmorViolationException when a match blocks the call
	 * @throws ModelArmorNotScreenedException when screening could not complete and fail-open is off
	 */
	public @Nullable String screen(String caller, Phase phase, MatchAction onMatch, boolean replaceable,
			Supplier<SanitizationResult> call) {
		SanitizationResult result;
		try {
			result = call.get();
		}
		catch (ModelArmorException ex) {
			notScreened(caller, phase, FailureClassifier.describe(ex) + " after " + ex.attempts() + " attempt(s)",
					ex.attempts(), ex);
			return null;
		}
		switch (result.verdict()) {
			case MATCHED -> {
				return onMatch(caller, phase, onMatch, result, replaceable);
			}
			case NO_MATCH -> this.observer.get().screened(phase, ScreeningResult.ALLOWED, Set.of());
			default -> notScreened(caller, phase, "filterMatchState " + result.filterMatchState()
					+ ", invocationResult " + result.invocationResult(), 0, null);
		}
		return null;
	}

	private void notScreened(String caller, Phase phase, String reason, int attempts, @Nullable Throwable cause) {
		if (!this.failOpen.getAsBoolean()) {
			this.observer.get().screened(phase, ScreeningResult.FAILED_CLOSED, Set.of());
			throw new ModelArmorNotScreenedException(phase, reason, attempts, cause);
		}
		this.observer.get().screened(phase, ScreeningResult.FAILED_OPEN, Set.of());
		logger.warn(String.format("Model Armor could not screen a call, letting it through (fail-open): method=\"%s\" "
				+ "phase=%s reason=\"%s\" outcome=%s", caller, phase, reason, CallOutcome.NOT_SCREENED.tag()));
	}

	private @Nullable String onMatch(String caller, Phase phase, MatchAction onMatch, SanitizationResult result,
			boolean replaceable) {
		switch (onMatch) {
			case LOG_ONLY -> {
				this.observer.get().screened(phase, ScreeningResult.LOGGED, result.matchedFilters());
				logger.info(String.format("Model Armor matched, continuing (onMatch=LOG_ONLY): method=\"%s\" phase=%s "
						+ "filters=[%s]", caller, phase, String.join(",", result.matchedFilters())));
				return null;
			}
			case DEIDENTIFY -> {
				if (replaceable && result.matchedFilters().equals(SDP_ONLY) && result.deidentifiedText().isPresent()) {
					this.observer.get().screened(phase, ScreeningResult.DEIDENTIFIED, result.matchedFilters());
					logger.info(String.format("Model Armor de-identified sensitive data: method=\"%s\" phase=%s",
							caller, phase));
					return result.deidentifiedText().get();
				}
				throw blocked(phase, result);
			}
			default -> throw blocked(phase, result);
		}
	}

	private ModelArmorViolationException blocked(Phase phase, SanitizationResult result) {
		this.observer.get().screened(phase, ScreeningResult.BLOCKED, result.matchedFilters());
		return new ModelArmorViolationException(phase, result);
	}

}
