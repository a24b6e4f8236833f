package dev.modelarmor.langchain4j;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.guardrail.InputGuardrail;
import dev.langchain4j.guardrail.InputGuardrailRequest;
import dev.langchain4j.guardrail.InputGuardrailResult;
import dev.langchain4j.invocation.InvocationContext;
import dev.modelarmor.screening.MatchAction;
import dev.modelarmor.screening.ModelArmorScreening;
import dev.modelarmor.screening.Phase;
import dev.modelarmor.screening.ScreeningDecision;
import dev.modelarmor.screening.ScreeningDecision.Deidentified;
import dev.modelarmor.screening.ScreeningDecision.Refusal;
import dev.modelarmor.screening.ScreeningRequest;
import dev.modelarmor.screening.media.MediaItem;
import org.jspecify.annotations.Nullable;

/**
 * A LangChain4j {@link InputGuardrail} that screens the user message with Model Armor before the model gets it:
 * its text (in windows when long) and its images and PDFs, all at once. A match, screening that could not
 * complete (fail-closed, the default) or media that cannot be screened ends the call with LangChain4j's
 * {@code InputGuardrailException}, whose message names the phase and the matched filters (never the text) and
 * whose cause is the starter's refusal exception ({@code ModelArmorViolationException} and so on). With
 * {@link MatchAction#DEIDENTIFY}, a prompt whose only match is Sensitive Data Protection goes to the model as its
 * de-identified text. Unless given a template, it screens with the one the starter's tenant resolver chooses for
 * the call's tenant ({@link TenantSource}).
 *
 * <pre>{@code
 * Assistant assistant = AiServices.builder(Assistant.class)
 *     .chatModel(chatModel)
 *     .inputGuardrails(modelArmorInputGuardrail)
 *     .build();
 * }</pre>
 */
public final class ModelArmorInputGuardrail implements InputGuardrail {

	private static final String CALLER = "ModelArmorInputGuardrail";

	private final ModelArmorScreening screening;

	private final @Nullable String template;

	private final MatchAction onMatch;

	private final TenantSource tenants;

	/**
	 * Creates the guardrail, which finds a call's tenant in its invocation parameters
	 * ({@link TenantSource#INVOCATION_PARAMETER}).
	 * @param screening the starter's screening
	 * @param template the template to screen with, or {@code null} for the one the tenant resolver chooses
	 * ({@code modelarmor.template-id} for a call that names no tenant)
	 * @param onMatch what a match does
	 */
	public ModelArmorInputGuardrail(ModelArmorScreening screening, @Nullable String template, MatchAction onMatch) {
		this(screening, template, onMatch, TenantSource.INVOCATION_PARAMETER);
	}

	/**
	 * Creates the guardrail.
	 * @param screening the starter's screening
	 * @param template the template to screen with, or {@code null} for the one the tenant resolver chooses
	 * @param onMatch what a match does
	 * @param tenants where a call's tenant is found
	 */
	public ModelArmorInputGuardrail(ModelArmorScreening screening, @Nullable String template, MatchAction onMatch,
			TenantSource tenants) {
		this.screening = Objects.requireNonNull(screening, "screening must not be null");
		this.template = template;
		this.onMatch = Objects.requireNonNull(onMatch, "onMatch must not be null");
		this.tenants = Objects.requireNonNull(tenants, "tenants must not be null");
	}

	@Override
	public InputGuardrailResult validate(InputGuardrailRequest request) {
		UserMessage message = request.userMessage();
		InvocationContext invocation = (request.requestParams() != null) ? request.requestParams().invocationContext()
				: null;
		Screenings.Bound bound = Screenings.bind(this.screening,
				ScreeningRequest.prompt(CALLER, "").withTemplate(this.template), this.tenants.tenant(invocation),
				TenantSource.attributes(invocation));
		Refusal tenantRefused = bound.refusal();
		if (tenantRefused != null) {
			return fatal(Screenings.message(tenantRefused), tenantRefused.exception());
		}
		String template = bound.template();
		String text = Screenings.text(message);
		List<MediaItem> media = PromptParts.media(message);
		List<CompletableFuture<ScreeningDecision>> decisions = new ArrayList<>();
		// De-identified text can replace the message only when text is all it holds.
		boolean replaceable = this.onMatch == MatchAction.DEIDENTIFY && media.isEmpty() && message.hasSingleText();
		if (text != null && !text.isBlank()) {
			decisions.add(this.screening.screenAsync(ScreeningRequest.prompt(CALLER, text)
				.withTemplate(template)
				.withOnMatch(this.onMatch)
				.withReplaceable(replaceable)));
		}
		for (MediaItem item : media) {
			decisions.add((item instanceof MediaItem.Screenable screenable)
					? this.screening.screenAsync(ScreeningRequest.prompt(CALLER, screenable.item())
						.withTemplate(template)
						.withOnMatch(this.onMatch))
					: CompletableFuture.completedFuture(this.screening.unscreened(CALLER, Phase.PROMPT, template,
							(MediaItem.Unscreened) item)));
		}
		List<ScreeningDecision> decided = Screenings.await(ScreeningDecision.firstRefusalOrAll(decisions));
		for (ScreeningDecision decision : decided) {
			if (decision instanceof Refusal refusal) {
				return fatal(Screenings.message(refusal), refusal.exception());
			}
			if (decision instanceof Deidentified deidentified) {
				return successWith(deidentified.text());
			}
		}
		return InputGuardrailResult.success();
	}

}
