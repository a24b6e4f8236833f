package dev.modelarmor.langchain4j;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

import dev.langchain4j.model.moderation.Moderation;
import dev.langchain4j.model.moderation.ModerationModel;
import dev.langchain4j.model.moderation.ModerationRequest;
import dev.langchain4j.model.moderation.ModerationResponse;
import dev.modelarmor.screening.ModelArmorScreening;
import dev.modelarmor.screening.ModelArmorTenant;
import dev.modelarmor.screening.ScreeningDecision;
import dev.modelarmor.screening.ScreeningDecision.Refusal;
import dev.modelarmor.screening.ScreeningRequest;
import org.jspecify.annotations.Nullable;

/**
 * LangChain4j's {@link ModerationModel} over Model Armor, so that {@code @Moderate} methods of an AI service
 * (given this model with {@code AiServices.builder(..).moderationModel(..)}) and LangChain4j's moderation
 * guardrails screen with Model Armor. Each text is screened as a prompt; the texts of one request at once. A
 * text is flagged when it is refused: a match, media or input Model Armor refuses, or screening that could not
 * complete (fail-closed, the default). The flagged text LangChain4j puts in its {@code ModerationException} is
 * the refusal's message (phase and filters), never the text.
 *
 * <p>{@code @Moderate} lets the model run while moderating and fails the call afterwards: the prompt reaches the
 * model. To keep a prompt from the model, use {@link ModelArmorInputGuardrail}.
 *
 * <p>LangChain4j tells a moderation model nothing of the call: unless given a template, it screens with the one
 * the starter's tenant resolver chooses for the tenant of the servlet request being handled on the calling thread
 * ({@code modelarmor.tenant.header}), the default template outside one.
 */
public final class ModelArmorModerationModel implements ModerationModel {

	/** The response metadata key of the matched filters, when a text was flagged for a match. */
	public static final String FILTERS_METADATA = "modelarmor.filters";

	private static final String CALLER = "ModelArmorModerationModel";

	private final ModelArmorScreening screening;

	private final @Nullable String template;

	/**
	 * Creates the model.
	 * @param screening the starter's screening
	 * @param template the template to screen with, or {@code null} for the one the tenant resolver chooses
	 */
	public ModelArmorModerationModel(ModelArmorScreening screening, @Nullable String template) {
		this.screening = Objects.requireNonNull(screening, "screening must not be null");
		this.template = template;
	}

	@Override
	public ModerationResponse doModerate(ModerationRequest request) {
		List<CompletableFuture<ScreeningDecision>> decisions = new ArrayList<>();
		for (String text : request.texts()) {
			if (text != null && !text.isBlank()) {
				decisions.add(this.screening.screenAsync(ScreeningRequest.prompt(CALLER, text).withTemplate(this.template),
						ModelArmorTenant.current(), Map.of()));
			}
		}
		for (ScreeningDecision decision : Screenings.await(ScreeningDecision.firstRefusalOrAll(decisions))) {
			if (decision instanceof Refusal refusal) {
				ModerationResponse.Builder response = ModerationResponse.builder()
					.moderation(Moderation.flagged(Screenings.message(refusal)));
				if (refusal instanceof ScreeningDecision.Blocked blocked) {
					response.metadata(Map.of(FILTERS_METADATA, blocked.result().matchedFilters().stream().sorted().toList()));
				}
				return response.build();
			}
		}
		return ModerationResponse.builder().moderation(Moderation.notFlagged()).build();
	}

}
