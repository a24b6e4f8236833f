package dev.modelarmor.screening;

import java.io.IOException;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import dev.modelarmor.client.DataItem;
import dev.modelarmor.client.ModelArmorApiException;
import dev.modelarmor.client.ModelArmorException;
import dev.modelarmor.client.ModelArmorInputTooLargeException;
import dev.modelarmor.client.SanitizationResult;
import dev.modelarmor.retry.CallOutcome;
import dev.modelarmor.retry.internal.FailureClassifier;
import dev.modelarmor.retry.TokenUnavailableException;
import dev.modelarmor.screening.ScreeningDecision.Blocked;
import dev.modelarmor.screening.ScreeningDecision.Deidentified;
import dev.modelarmor.screening.ScreeningDecision.NotScreened;
import dev.modelarmor.screening.ScreeningDecision.Redacted;
import dev.modelarmor.screening.ScreeningDecision.Rejected;
import dev.modelarmor.screening.media.MediaItem;
import dev.modelarmor.screening.media.UnscreenableMedia;
import org.jspecify.annotations.Nullable;

/**
 * What a screening means for the call it guards, shared by {@code @ModelArmorGuarded} methods and other
 * integrations (such as the Spring AI advisor), returned as a {@link ScreeningDecision}:
 * <ul>
 * <li>no match and every filter ran ({@code SUCCESS}, or {@code PARTIAL} when the template ignores
 * partial failures): {@link ScreeningDecision.Pass go on};</li>
 * <li>a match: the {@link MatchAction} — {@link Blocked block}, go on with {@link Deidentified
 * de-identified text} (only when SDP is the only matched filter, de-identified text came back and the
 * caller can use it), or log and go on;</li>
 * <li>Model Armor refused the text itself (larger than it screens, or answered HTTP 400 or 413):
 * {@link Rejected block}, whatever fail-open says, since that is input the caller controls;</li>
 * <li>screening could not complete (Model Armor failed after its retries, or its answer gave no usable
 * verdict): {@link NotScreened block}, or with fail-open go on.</li>
 * </ul>
 * Built once, by {@link ModelArmorScreening}. Every decision is reported to the {@link ScreeningObserver}; every one that lets an unscreened call
 * through or refuses a call for any reason but a match logs one WARN line. Log lines name the caller, the
 * phase, the filters or the failure, never the content.
 */
final class ScreeningDecider {

	private static final String FAILURE_FIELDS = "method=\"%s\" phase=%s outcome=%s status=%s attempts=%d reason=\"%s\"";

	/** The {@code outcome} of a log line for text that Model Armor refused. */
	private static final String INPUT_REJECTED = "input_rejected";

	/** The {@code outcome} of a log line for media that went on unscreened. */
	private static final String UNSCREENED = "unscreened";

	private static final String MEDIA_FIELDS = "method=\"%s\" phase=%s outcome=%s media_type=%s reason=%s";

	/** The {@code status} of a screening that got a result: only a 2xx answer gives one, and Model Armor's is 200. */
	private static final String ANSWERED = "200";

	/** How deep a cause chain is searched for an I/O failure: real chains are a few links long. */
	private static final int MAX_CAUSE_DEPTH = 16;

	private final BooleanSupplier failOpen;

	private final Supplier<ScreeningObserver> observer;

	/** Where the decisions' log lines go, at most so many of a kind each second. */
	private final DecisionLog log;

	/**
	 * Creates a decider that writes every line in full and names no template for the client's own.
	 * @param failOpen whether screening that cannot complete lets the call through
	 * @param observer told of every decision
	 */
	ScreeningDecider(BooleanSupplier failOpen, Supplier<ScreeningObserver> observer) {
		this(failOpen, observer, new LogLineRate(Integer.MAX_VALUE, System::nanoTime), null);
	}

	/**
	 * Creates a decider.
	 * @param failOpen whether screening that cannot complete lets the call through
	 * @param observer told of every decision
	 * @param lines how many lines of each outcome are written in full each second
	 * @param clientTemplateName the full resource name of the client's own template, or {@code null} when unknown
	 */
	ScreeningDecider(BooleanSupplier failOpen, Supplier<ScreeningObserver> observer, LogLineRate lines,
			@Nullable String clientTemplateName) {
		this.failOpen = failOpen;
		this.observer = observer;
		this.log = new DecisionLog(lines, clientTemplateName);
	}

	/**
	 * Screens one side of a call and decides; an image request that is replaceable may go on with its
	 * redacted image.
	 * @param request what is screened and how to decide
	 * @param call the Model Armor call
	 * @return the decision
	 */
	ScreeningDecision screen(ScreeningRequest request, Supplier<SanitizationResult> call) {
		SanitizationResult result;
		try {
			result = call.get();
		}
		catch (ModelArmorException ex) {
			return failed(Side.of(request), ex);
		}
		return decide(Side.of(request), request.onMatch(), request.replaceable(), isImage(request), result);
	}

	/**
	 * Decides what a screening that ended means, as {@link #screen(ScreeningRequest, Supplier)} does.
	 * @param request what was screened and how to decide
	 * @param result the result, or {@code null} when the screening failed
	 * @param failure the failure, when the screening failed
	 * @return the decision
	 */
	ScreeningDecision decide(ScreeningRequest request, @Nullable SanitizationResult result,
			@Nullable Throwable failure) {
		if (failure == null && result != null) {
			return decide(Side.of(request), request.onMatch(), request.replaceable(), isImage(request), result);
		}
		return decide(Side.of(request), request.onMatch(), request.replaceable(), result, failure);
	}

	/**
	 * Decides for media that Model Armor cannot screen: too large blocks in every mode; anything else blocks,
	 * or with {@link UnscreenableMedia#ALLOW} goes on unscreened. Each one logs a WARN line (the media type and
	 * why, never the content or a URL) and is reported to the observer.
	 * @param caller names the guarded code in log lines
	 * @param phase which side
	 * @param template the template it would have been screened with, or {@code null} for the client's own
	 * @param media the media
	 * @param policy what unscreenable media does
	 * @return the decision
	 */
	ScreeningDecision unscreened(String caller, Phase phase, @Nullable String template, MediaItem.Unscreened media,
			UnscreenableMedia policy) {
		Side side = new Side(caller, phase, template);
		String fields;
		if (media.reason() == MediaItem.Reason.TOO_LARGE) {
			report(side, ScreeningResult.REJECTED, Set.of());
			fields = String.format(MEDIA_FIELDS, caller, phase, INPUT_REJECTED, media.mediaType(), media.reason().tag());
			String tooLarge = fields;
			this.log.write(true, INPUT_REJECTED, "media_too_large", side, null, null,
					(line) -> line.phase(phase).outcome(INPUT_REJECTED).field("media_type", media.mediaType()),
					() -> "Model Armor cannot screen media this large, blocking the call in every mode: " + tooLarge);
			return new Rejected(phase, media.mediaType() + " media " + media.reason().description(), true,
					new ModelArmorInputTooLargeException("media", media.size(), DataItem.MAX_BYTES));
		}
		if (policy == UnscreenableMedia.ALLOW) {
			report(side, ScreeningResult.UNSCREENED, Set.of());
			fields = String.format(MEDIA_FIELDS, caller, phase, UNSCREENED, media.mediaType(), media.reason().tag());
			String allowed = fields;
			this.log.write(true, UNSCREENED, UNSCREENED, side, null, null,
					(line) -> line.phase(phase).outcome(UNSCREENED).field("media_type", media.mediaType()),
					() -> "Model Armor cannot screen media, letting it through unscreened "
							+ "(modelarmor.screening.unscreenable-media=allow): " + allowed);
			return ScreeningDecision.PASS;
		}
		report(side, ScreeningResult.REJECTED, Set.of());
		fields = String.format(MEDIA_FIELDS, caller, phase, INPUT_REJECTED, media.mediaType(), media.reason().tag());
		String blocked = fields;
		this.log.write(true, INPUT_REJECTED, "media_unscreenable", side, null, null,
				(line) -> line.phase(phase).outcome(INPUT_REJECTED).field("media_type", media.mediaType()),
				() -> "Model Armor cannot screen media, blocking the call "
						+ "(modelarmor.screening.unscreenable-media=block): " + blocked);
		return new Rejected(phase, media.mediaType() + " media cannot be screened (" + media.reason().description()
				+ "); modelarmor.screening.unscreenable-media=allow lets such media through unscreened", false, null);
	}

	/**
	 * Refuses a call whose tenant has no template: input the caller controls, blocked whatever fail-open says,
	 * with one WARN line (never the tenant's name as sent: it is the request's text) and a metric.
	 * @param request the call refused
	 * @return the refusal
	 */
	ScreeningDecision unknownTenant(ScreeningRequest request) {
		Side side = Side.of(request);
		report(side, ScreeningResult.REJECTED, Set.of());
		this.log.write(true, "unknown_tenant", "unknown_tenant", side, null, null,
				(line) -> line.phase(request.phase()).outcome("unknown_tenant"),
				() -> "Model Armor was sent nothing for a call whose tenant has no template, blocking it in every "
						+ "mode: "
						+ "method=\"" + request.caller() + "\" phase=" + request.phase() + " outcome=unknown_tenant");
		return new Rejected(request.phase(), ModelArmorUnknownTenantException.REASON, false,
				new ModelArmorUnknownTenantException());
	}

	private static boolean isImage(ScreeningRequest request) {
		DataItem item = request.item();
		DataItem.ByteItem bytes = (item != null) ? item.byteItem() : null;
		return bytes != null && bytes.byteDataType() == dev.modelarmor.client.ByteDataType.IMAGE;
	}

	/**
	 * Screens one side of a call and decides.
	 * @param caller names the guarded code in log lines, e.g. {@code ChatService.chat(String)}
	 * @param phase which side
	 * @param onMatch what a match does
	 * @param replaceable whether the caller can go on with de-identified text
	 * @param call the Model Armor call
	 * @return the decision: go on, go on with de-identified text, or refuse
	 */
	ScreeningDecision screen(String caller, Phase phase, MatchAction onMatch, boolean replaceable,
			Supplier<SanitizationResult> call) {
		SanitizationResult result;
		try {
			result = call.get();
		}
		catch (ModelArmorException ex) {
			return failed(new Side(caller, phase, null), ex);
		}
		return decide(new Side(caller, phase, null), onMatch, replaceable, false, result);
	}

	/**
	 * Decides what a screening that ended means: with its result, or with the failure it ended with.
	 * @param caller names the guarded code in log lines
	 * @param phase which side
	 * @param onMatch what a match does
	 * @param replaceable whether the caller can go on with de-identified text
	 * @param result the result, or {@code null} when the screening failed
	 * @param failure the failure, when the screening failed; one that is no {@link ModelArmorException}
	 * is thrown as it is
	 * @return the decision
	 */
	ScreeningDecision decide(String caller, Phase phase, MatchAction onMatch, boolean replaceable,
			@Nullable SanitizationResult result, @Nullable Throwable failure) {
		return decide(new Side(caller, phase, null), onMatch, replaceable, result, failure);
	}

	private ScreeningDecision decide(Side side, MatchAction onMatch, boolean replaceable,
			@Nullable SanitizationResult result, @Nullable Throwable failure) {
		if (failure instanceof ModelArmorException ex) {
			return failed(side, ex);
		}
		if (failure instanceof RuntimeException runtime) {
			throw runtime;
		}
		if (failure instanceof Error error) {
			throw error;
		}
		if (failure != null || result == null) {
			throw new IllegalStateException("A screening ended with neither a result nor a failure", failure);
		}
		return decide(side, onMatch, replaceable, false, result);
	}

	private ScreeningDecision decide(Side side, MatchAction onMatch, boolean replaceable, boolean image,
			SanitizationResult result) {
		switch (result.verdict()) {
			case MATCHED -> {
				return onMatch(side, onMatch, result, replaceable, image);
			}
			case NO_MATCH -> {
				report(side, ScreeningResult.ALLOWED, Set.of());
				return ScreeningDecision.PASS;
			}
			default -> {
				return notScreened(side, new NotScreened(side.phase(), "filterMatchState " + result.filterMatchState()
						+ ", invocationResult " + result.invocationResult(), 0, ANSWERED, null));
			}
		}
	}

	private ScreeningDecision failed(Side side, ModelArmorException ex) {
		String status = status(ex);
		Rejected rejected = rejection(side.phase(), ex);
		if (rejected != null) {
			report(side, ScreeningResult.REJECTED, Set.of());
			this.log.write(true, INPUT_REJECTED, INPUT_REJECTED, side, ex.callId().orElse(null), ex.template().orElse(null),
					(line) -> line.phase(side.phase()).outcome(INPUT_REJECTED).status(status).attempts(ex.attempts()),
					() -> String.format("Model Armor refused the input, blocking the call in every mode: " + FAILURE_FIELDS,
							side.caller(), side.phase(), INPUT_REJECTED, status, ex.attempts(), rejected.reason())
							+ side.templateField());
			return rejected;
		}
		// why, in words, when the call ended for a reason of its own (deadline, budget, breaker, quota)
		String why = ex.outcome().filter((outcome) -> outcome != CallOutcome.NON_RETRYABLE)
			.map((outcome) -> ", " + outcome.reason()).orElse("");
		return notScreened(side,
				new NotScreened(side.phase(), FailureClassifier.describe(ex) + why, ex.attempts(), status, ex));
	}

	/**
	 * Text that Model Armor will never screen as it is: larger than it takes, or refused as an invalid
	 * argument. Retrying or failing open would not mend it, and failing open would let anyone skip
	 * screening by padding a prompt.
	 */
	private static @Nullable Rejected rejection(Phase phase, ModelArmorException ex) {
		if (ex instanceof ModelArmorInputTooLargeException tooLarge) {
			return new Rejected(phase, tooLarge.size() + " bytes, over the limit of " + tooLarge.limit(), true, ex);
		}
		if (ex instanceof ModelArmorApiException api && (api.statusCode() == 400 || api.statusCode() == 413)) {
			return new Rejected(phase, "HTTP " + api.statusCode(), api.statusCode() == 413, ex);
		}
		return null;
	}

	private ScreeningDecision notScreened(Side side, NotScreened notScreened) {
		boolean open = this.failOpen.getAsBoolean();
		report(side, open ? ScreeningResult.FAILED_OPEN : ScreeningResult.FAILED_CLOSED, Set.of());
		String fields = String.format(FAILURE_FIELDS, side.caller(), notScreened.phase(), CallOutcome.NOT_SCREENED.tag(),
				notScreened.status(), notScreened.attempts(), notScreened.reason()) + side.templateField();
		String clientTemplate = (notScreened.cause() instanceof ModelArmorException modelArmor)
				? modelArmor.template().orElse(null) : null;
		String outcome = CallOutcome.NOT_SCREENED.tag();
		this.log.write(true, outcome, open ? outcome + " fail_open" : outcome, side, callId(notScreened.cause()), clientTemplate,
				(line) -> line.phase(notScreened.phase()).outcome(CallOutcome.NOT_SCREENED).status(notScreened.status())
					.attempts(notScreened.attempts()).field("fail_open", open),
				() -> (open ? "Model Armor could not screen a call, letting it through (fail-open): "
						: "Model Armor could not screen a call, blocking it (fail-closed): ") + fields);
		return open ? ScreeningDecision.PASS : notScreened;
	}

	private ScreeningDecision onMatch(Side side, MatchAction onMatch, SanitizationResult result, boolean replaceable,
			boolean image) {
		String caller = side.caller();
		Phase phase = side.phase();
		if (onMatch == MatchAction.LOG_ONLY) {
			report(side, ScreeningResult.LOGGED, result.matchedFilters());
			this.log.write(false, ScreeningResult.LOGGED.tag(), ScreeningResult.LOGGED.tag(), side, null, null,
					(line) -> line.phase(phase).outcome(ScreeningResult.LOGGED.tag()),
					() -> String.format("Model Armor matched, continuing (onMatch=LOG_ONLY): method=\"%s\" phase=%s "
							+ "filters=[%s]", caller, phase, String.join(",", result.matchedFilters())) + side.templateField());
			return ScreeningDecision.PASS;
		}
		if (image && onMatch == MatchAction.DEIDENTIFY && replaceable && SdpOnly.matched(result)
				&& SdpOnly.redactedImage(result).isPresent()) {
			report(side, ScreeningResult.DEIDENTIFIED, result.matchedFilters());
			this.log.write(false, ScreeningResult.DEIDENTIFIED.tag(), "image " + ScreeningResult.DEIDENTIFIED.tag(), side, null,
					null, (line) -> line.phase(phase).outcome(ScreeningResult.DEIDENTIFIED.tag()),
					() -> String.format("Model Armor redacted sensitive data in an image: method=\"%s\" phase=%s", caller,
							phase) + side.templateField());
			return new Redacted(SdpOnly.redactedImage(result).get());
		}
		if (!image && onMatch == MatchAction.DEIDENTIFY && replaceable && SdpOnly.matched(result)
				&& result.deidentifiedText().isPresent()) {
			report(side, ScreeningResult.DEIDENTIFIED, result.matchedFilters());
			this.log.write(false, ScreeningResult.DEIDENTIFIED.tag(), ScreeningResult.DEIDENTIFIED.tag(), side, null, null,
					(line) -> line.phase(phase).outcome(ScreeningResult.DEIDENTIFIED.tag()),
					() -> String.format("Model Armor de-identified sensitive data: method=\"%s\" phase=%s", caller, phase)
							+ side.templateField());
			return new Deidentified(result.deidentifiedText().get());
		}
		report(side, ScreeningResult.BLOCKED, result.matchedFilters());
		this.log.write(false, ScreeningResult.BLOCKED.tag(), ScreeningResult.BLOCKED.tag(), side, null, null,
				(line) -> line.phase(phase).outcome(ScreeningResult.BLOCKED.tag()),
				() -> String.format("Model Armor matched, blocking the call (onMatch=%s): method=\"%s\" phase=%s "
						+ "filters=[%s]", onMatch, caller, phase, String.join(",", result.matchedFilters()))
						+ side.templateField());
		return new Blocked(phase, result);
	}

	/**
	 * The status of the last attempt, in the vocabulary of the {@code status} tag of
	 * {@code modelarmor.client.requests}.
	 */
	private static String status(ModelArmorException ex) {
		if (ex instanceof ModelArmorApiException api) {
			return String.valueOf(api.statusCode());
		}
		Throwable cause = ex;
		for (int depth = 0; cause != null && depth < MAX_CAUSE_DEPTH; depth++) {
			if (cause instanceof TokenUnavailableException) {
				return "token_unavailable";
			}
			if (cause instanceof IOException) {
				return "io_error";
			}
			cause = cause.getCause();
		}
		return "none";
	}

	private void report(Side side, ScreeningResult result, Set<String> matchedFilters) {
		this.observer.get().screened(side.phase(), side.template(), result, matchedFilters);
	}

	/** The call id of the Model Armor call whose failure this is, when it carries one. */
	private static @Nullable String callId(@Nullable Throwable failure) {
		return (failure instanceof ModelArmorException modelArmor) ? modelArmor.callId().orElse(null) : null;
	}

	/**
	 * Who is screened: the guarded code, the side of its call, and the template (or {@code null} for the
	 * client's own), for log lines and the observer.
	 */
	record Side(String caller, Phase phase, @Nullable String template) {

		static Side of(ScreeningRequest request) {
			return new Side(request.caller(), request.phase(), request.template());
		}

		/**
		 * The template as a log line may show it: a template id or {@code locations/{location}/templates/{id}},
		 * any other character replaced, bounded; {@code null} for the client's own.
		 */
		@Nullable String loggableTemplate() {
			if (this.template == null || this.template.isEmpty()) {
				return null;
			}
			String bounded = (this.template.length() > 200) ? this.template.substring(0, 200) : this.template;
			return bounded.replaceAll("[^A-Za-z0-9/_.-]", "?");
		}

		/** {@code " template=<template>"} for a template other than the client's own; empty otherwise. */
		String templateField() {
			String loggable = loggableTemplate();
			return (loggable != null) ? " template=" + loggable : "";
		}

	}

}
