package dev.modelarmor.ai.moderation;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

import dev.modelarmor.client.DetectionConfidenceLevel;
import dev.modelarmor.client.FilterMatchState;
import dev.modelarmor.client.FilterResult;
import dev.modelarmor.client.PiAndJailbreakFilterResult;
import dev.modelarmor.client.RaiFilterResult;
import dev.modelarmor.client.SanitizationResult;
import dev.modelarmor.screening.ModelArmorScreening;
import dev.modelarmor.screening.ScreeningDecision;
import dev.modelarmor.screening.ScreeningDecision.Blocked;
import dev.modelarmor.screening.ScreeningDecision.Refusal;
import dev.modelarmor.screening.ScreeningRequest;
import org.jspecify.annotations.Nullable;

import org.springframework.ai.moderation.Categories;
import org.springframework.ai.moderation.CategoryScores;
import org.springframework.ai.moderation.Generation;
import org.springframework.ai.moderation.Moderation;
import org.springframework.ai.moderation.ModerationModel;
import org.springframework.ai.moderation.ModerationOptions;
import org.springframework.ai.moderation.ModerationPrompt;
import org.springframework.ai.moderation.ModerationResponse;
import org.springframework.ai.moderation.ModerationResult;

/**
 * Spring AI's {@link ModerationModel} over Model Armor, so that code and advisors written against Spring AI's
 * moderation API screen with Model Armor. The text is screened as a prompt ({@code sanitizeUserPrompt}, in
 * windows when it is long), with the template the options' {@code model} names, else this model's template, else
 * the one the template resolver chooses ({@code modelarmor.template-id}).
 *
 * <p>Model Armor's filters are mapped onto Spring AI's categories; a category's score is the confidence of the
 * filter that matched it (high 1.0, medium and above 0.75, low and above 0.5, a match without a confidence 1.0),
 * and 0.0 when nothing matched it:
 * <ul>
 * <li>{@code rai}: {@code sexually_explicit} → sexual, {@code hate_speech} → hate, {@code harassment} →
 * harassment, {@code dangerous} → dangerous;</li>
 * <li>{@code pi_and_jailbreak} → jailbreaking;</li>
 * <li>{@code sdp} (sensitive data) → PII;</li>
 * <li>{@code csam} → sexual/minors;</li>
 * <li>{@code malicious_uris} and {@code virus_scan} → dangerous.</li>
 * </ul>
 * A result is flagged when Model Armor found a match, and also, failing closed, when the text could not be
 * screened (Model Armor unreachable after its retries, with {@code modelarmor.screening.fail-open} off) or Model
 * Armor refused it (too large): then no category is set. Model Armor has no counterpart of self-harm, violence,
 * health, financial, law or criminal alone (nor is Spring AI's deprecated dangerous-and-criminal set): those
 * stay false. Thread-safe.
 */
public final class ModelArmorSpringAiModerationModel implements ModerationModel {

	/** The model named in each {@link Moderation} when no template is named. */
	public static final String MODEL = "model-armor";

	private static final String CALLER = "ModelArmorSpringAiModerationModel";

	private final ModelArmorScreening screening;

	private final @Nullable String template;

	/**
	 * Creates the model.
	 * @param screening the starter's screening
	 * @param template the template to screen with, or {@code null} for the resolver's ({@code modelarmor.template-id})
	 */
	public ModelArmorSpringAiModerationModel(ModelArmorScreening screening, @Nullable String template) {
		this.screening = Objects.requireNonNull(screening, "screening must not be null");
		this.template = template;
	}

	@Override
	public ModerationResponse call(ModerationPrompt prompt) {
		Objects.requireNonNull(prompt, "prompt must not be null");
		String text = Objects.requireNonNullElse(prompt.getInstructions().getText(), "");
		String template = template(prompt.getOptions());
		ModerationResult result;
		if (text.isBlank()) {
			result = result(false, null);
		}
		else {
			ScreeningDecision decision = this.screening
				.screen(ScreeningRequest.prompt(CALLER, text).withTemplate(template), null, Map.of());
			if (decision instanceof Blocked blocked) {
				result = result(true, blocked.result());
			}
			else {
				result = result(decision instanceof Refusal, null);
			}
		}
		// Model Armor answers with no id of its own: each moderation gets a random one
		Moderation moderation = Moderation.builder()
			.id("modelarmor-" + UUID.randomUUID())
			.model((template != null) ? template : MODEL)
			.results(List.of(result))
			.build();
		return new ModerationResponse(new Generation(moderation));
	}

	private @Nullable String template(@Nullable ModerationOptions options) {
		String model = (options != null) ? options.getModel() : null;
		return (model != null && !model.isBlank()) ? model : this.template;
	}

	private static ModerationResult result(boolean flagged, @Nullable SanitizationResult sanitized) {
		Scores scores = new Scores();
		if (sanitized != null) {
			sanitized.filterResults().forEach((name, filter) -> scores.add(name, filter));
		}
		return ModerationResult.builder()
			.flagged(flagged)
			.categories(scores.categories())
			.categoryScores(scores.categoryScores())
			.build();
	}

	/** The scores of Spring AI's categories, the highest of the filters that matched each. */
	private static final class Scores {

		double sexual;

		double hate;

		double harassment;

		double dangerous;

		double sexualMinors;

		double jailbreaking;

		double pii;

		void add(String name, FilterResult filter) {
			if (!filter.matched()) {
				return;
			}
			switch (name.toLowerCase(Locale.ROOT)) {
				case "rai" -> rai(filter.raiFilterResult());
				case "pi_and_jailbreak" -> this.jailbreaking = Math.max(this.jailbreaking, jailbreak(filter));
				case "sdp" -> this.pii = 1.0;
				case "csam" -> this.sexualMinors = 1.0;
				case "malicious_uris", "virus_scan" -> this.dangerous = 1.0;
				default -> {
					// a filter this version does not map: the result is flagged, no category named
				}
			}
		}

		private void rai(@Nullable RaiFilterResult rai) {
			if (rai == null) {
				return;
			}
			rai.raiFilterTypeResults().forEach((type, result) -> {
				if (result.matchState() != FilterMatchState.MATCH_FOUND) {
					return;
				}
				double score = score(result.confidenceLevel());
				switch (type.toLowerCase(Locale.ROOT)) {
					case "sexually_explicit" -> this.sexual = Math.max(this.sexual, score);
					case "hate_speech" -> this.hate = Math.max(this.hate, score);
					case "harassment" -> this.harassment = Math.max(this.harassment, score);
					case "dangerous" -> this.dangerous = Math.max(this.dangerous, score);
					default -> {
						// a category this version does not map
					}
				}
			});
		}

		private static double jailbreak(FilterResult filter) {
			PiAndJailbreakFilterResult result = filter.piAndJailbreakFilterResult();
			return (result != null) ? score(result.confidenceLevel()) : 1.0;
		}

		private static double score(DetectionConfidenceLevel level) {
			return switch (level) {
				case HIGH -> 1.0;
				case MEDIUM_AND_ABOVE -> 0.75;
				case LOW_AND_ABOVE -> 0.5;
				default -> 1.0;
			};
		}

		Categories categories() {
			return Categories.builder()
				.sexual(this.sexual > 0)
				.hate(this.hate > 0)
				.harassment(this.harassment > 0)
				.dangerous(this.dangerous > 0)
				.sexualMinors(this.sexualMinors > 0)
				.jailbreaking(this.jailbreaking > 0)
				.pii(this.pii > 0)
				.build();
		}

		CategoryScores categoryScores() {
			return CategoryScores.builder()
				.sexual(this.sexual)
				.hate(this.hate)
				.harassment(this.harassment)
				.dangerous(this.dangerous)
				.sexualMinors(this.sexualMinors)
				.jailbreaking(this.jailbreaking)
				.pii(this.pii)
				.build();
		}

	}

}
