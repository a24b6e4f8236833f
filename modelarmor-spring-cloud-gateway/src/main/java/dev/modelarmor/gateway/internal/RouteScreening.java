package dev.modelarmor.gateway.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import dev.modelarmor.screening.MatchAction;
import dev.modelarmor.screening.ModelArmorScreening;
import dev.modelarmor.screening.Phase;
import dev.modelarmor.screening.ScreeningDecision;
import dev.modelarmor.screening.ScreeningDecision.NotScreened;
import dev.modelarmor.screening.ScreeningRequest;
import dev.modelarmor.screening.media.MediaItem;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The screenings of one exchange on one route, through the starter's {@link ModelArmorScreening}
 * (templates, tenants, the verdict cache, the quota limiter, fail-open and the metrics come with it): the
 * route's templates and match action, the exchange's tenant, the route id in every log line and metric.
 */
final class RouteScreening {

	private static final Logger logger = LoggerFactory.getLogger(RouteScreening.class);

	private final ModelArmorScreening screening;

	private final RouteSettings route;

	private final @Nullable String tenant;

	RouteScreening(ModelArmorScreening screening, RouteSettings route, @Nullable String tenant) {
		this.screening = screening;
		this.route = route;
		this.tenant = tenant;
	}

	RouteSettings route() {
		return this.route;
	}

	/**
	 * Screens every part of a prompt at once; the first refusal decides as soon as it comes. Without
	 * de-identification, the texts of one phase are screened together, one call for all the messages.
	 */
	CompletableFuture<List<ScreeningDecision>> screenPrompt(List<PromptPart> parts) {
		List<CompletableFuture<ScreeningDecision>> decisions = new ArrayList<>(parts.size());
		for (PromptPart part : grouped(parts)) {
			decisions.add(screenPart(part));
		}
		return ScreeningDecision.firstRefusalOrAll(decisions);
	}

	/** The parts as screened: each on its own to de-identify in place, else one text per phase. */
	List<PromptPart> grouped(List<PromptPart> parts) {
		if (this.route.onMatch() == MatchAction.DEIDENTIFY) {
			return parts;
		}
		List<PromptPart> grouped = new ArrayList<>();
		StringBuilder prompt = new StringBuilder();
		StringBuilder toolResults = new StringBuilder();
		for (PromptPart part : parts) {
			if (part instanceof PromptPart.Text text) {
				StringBuilder into = (text.phase() == Phase.TOOL_RESULT) ? toolResults : prompt;
				if (!text.text().isBlank()) {
					into.append(into.isEmpty() ? "" : "\n\n").append(text.text());
				}
			}
			else {
				grouped.add(part);
			}
		}
		if (!prompt.isEmpty()) {
			grouped.add(new PromptPart.Text(Phase.PROMPT, List.of(), prompt.toString()));
		}
		if (!toolResults.isEmpty()) {
			grouped.add(new PromptPart.Text(Phase.TOOL_RESULT, List.of(), toolResults.toString()));
		}
		return grouped;
	}

	private CompletableFuture<ScreeningDecision> screenPart(PromptPart part) {
		if (part instanceof PromptPart.Text text) {
			if (text.text().isBlank()) {
				return CompletableFuture.completedFuture(ScreeningDecision.PASS);
			}
			ScreeningRequest request = ScreeningRequest.of(text.phase(), this.route.caller(), text.text())
				.withReplaceable(text.replaceable());
			return screen(request, this.route.promptTemplate());
		}
		MediaItem item = ((PromptPart.Media) part).item();
		if (item instanceof MediaItem.Screenable screenable) {
			return screen(ScreeningRequest.prompt(this.route.caller(), screenable.item()), this.route.promptTemplate());
		}
		try {
			return CompletableFuture.completedFuture(this.screening.unscreened(this.route.caller(), Phase.PROMPT,
					this.route.promptTemplate(), (MediaItem.Unscreened) item));
		}
		catch (RuntimeException ex) {
			return CompletableFuture.failedFuture(ex);
		}
	}

	/** Screens a generation's text (a whole answer's, or a window of a stream), which may be de-identified. */
	CompletableFuture<ScreeningDecision> screenAnswer(String text, @Nullable String userText) {
		return screen(ScreeningRequest.response(this.route.caller(), text, userText).withReplaceable(true),
				this.route.responseTemplate());
	}

	/** Screens tool calls' names and arguments as model output; they cannot be de-identified in place. */
	CompletableFuture<ScreeningDecision> screenToolCalls(String toolCalls, @Nullable String userText) {
		return screen(new ScreeningRequest(Phase.TOOL_CALL, toolCalls, null, userText, null, MatchAction.BLOCK, false,
				this.route.caller()), this.route.responseTemplate());
	}

	private CompletableFuture<ScreeningDecision> screen(ScreeningRequest request, @Nullable String template) {
		ScreeningRequest configured = request.withTemplate(template).withOnMatch(this.route.onMatch());
		CompletableFuture<ScreeningDecision> decision = this.screening.screenAsync(configured, this.tenant,
				Map.of("route", this.route.routeId()));
		if (!this.route.failOpen()) {
			return decision;
		}
		return decision.thenApply((decided) -> {
			if (decided instanceof NotScreened notScreened) {
				logger.warn("Model Armor gateway: route=\"{}\" phase={} outcome=failed_open reason=\"{}\"",
						this.route.routeId(), notScreened.phase(), notScreened.reason());
				return ScreeningDecision.PASS;
			}
			return decided;
		});
	}

}
