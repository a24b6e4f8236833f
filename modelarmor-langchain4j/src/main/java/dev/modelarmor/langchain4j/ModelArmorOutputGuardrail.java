package dev.modelarmor.langchain4j;

import java.lang.reflect.Method;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.guardrail.GuardrailRequestParams;
import dev.langchain4j.guardrail.OutputGuardrail;
import dev.langchain4j.guardrail.OutputGuardrailRequest;
import dev.langchain4j.guardrail.OutputGuardrailResult;
import dev.langchain4j.invocation.InvocationContext;
import dev.modelarmor.screening.MatchAction;
import dev.modelarmor.screening.ModelArmorScreening;
import dev.modelarmor.screening.ScreeningDecision;
import dev.modelarmor.screening.ScreeningDecision.Blocked;
import dev.modelarmor.screening.ScreeningDecision.Deidentified;
import dev.modelarmor.screening.ScreeningDecision.Refusal;
import dev.modelarmor.screening.ScreeningRequest;
import org.jspecify.annotations.Nullable;

import org.springframework.util.ClassUtils;

/**
 * A LangChain4j {@link OutputGuardrail} that screens the model's answer with Model Armor, sent with the user's
 * prompt, before the caller gets it. What a match does is {@link OnMatch}: block (LangChain4j's
 * {@code OutputGuardrailException}, naming the phase and the matched filters, never the text), go on with Sensitive
 * Data Protection's de-identified text, or ask the model once more with a note (LangChain4j's reprompt), the
 * second answer screened in turn and blocked if it matches too. Screening that could not complete blocks unless
 * fail-open is on. Unless given a template, it screens with the one the starter's tenant resolver chooses for the
 * call's tenant ({@link TenantSource}).
 *
 * <p><b>Streaming</b> ({@code TokenStream}): LangChain4j holds every partial response of a guarded stream back
 * until the output guardrails passed the whole answer, so a blocked answer never reaches the caller, in any
 * chunk. It then replays the model's own chunks, not a rewritten answer: on a streamed answer a rewrite would
 * leak the text it replaced, so there a match blocks whatever {@link OnMatch} says.
 */
public final class ModelArmorOutputGuardrail implements OutputGuardrail {

	/** The note a reprompt adds to the conversation. */
	public static final String REPROMPT_NOTE = "Your previous answer was blocked by a content safety filter. "
			+ "Answer the user's last message again without that content.";

	private static final String CALLER = "ModelArmorOutputGuardrail";

	private final ModelArmorScreening screening;

	private final @Nullable String template;

	private final OnMatch onMatch;

	private final TenantSource tenants;

	/** The calls already reprompted once, by their request parameters, which every attempt of a call shares. */
	private final Map<GuardrailRequestParams, Boolean> reprompted = Collections.synchronizedMap(new WeakHashMap<>());

	private final Map<String, Boolean> streamedMethods = new ConcurrentHashMap<>();

	/**
	 * Creates the guardrail, which finds a call's tenant in its invocation parameters
	 * ({@link TenantSource#INVOCATION_PARAMETER}).
	 * @param screening the starter's screening
	 * @param template the template to screen with, or {@code null} for the one the tenant resolver chooses
	 * ({@code modelarmor.template-id} for a call that names no tenant)
	 * @param onMatch what a match does
	 */
	public ModelArmorOutputGuardrail(ModelArmorScreening screening, @Nullable String template, OnMatch onMatch) {
		this(screening, template, onMatch, TenantSource.INVOCATION_PARAMETER);
	}

	/**
	 * Creates the guardrail.
	 * @param screening the starter's screening
	 * @param template the template to screen with, or {@code null} for the one the tenant resolver chooses
	 * @param onMatch what a match does
	 * @param tenants where a call's tenant is found
	 */
	public ModelArmorOutputGuardrail(ModelArmorScreening screening, @Nullable String template, OnMatch onMatch,
			TenantSource tenants) {
		this.screening = Objects.requireNonNull(screening, "screening must not be null");
		this.template = template;
		this.onMatch = Objects.requireNonNull(onMatch, "onMatch must not be null");
		this.tenants = Objects.requireNonNull(tenants, "tenants must not be null");
	}

	@Override
	public OutputGuardrailResult validate(OutputGuardrailRequest request) {
		AiMessage answer = request.responseFromLLM().aiMessage();
		String text = answer.text();
		if (text == null || text.isEmpty()) {
			return success();
		}
		GuardrailRequestParams params = request.requestParams();
		InvocationContext invocation = (params != null) ? params.invocationContext() : null;
		boolean streamed = streamed(invocation);
		boolean deidentify = this.onMatch == OnMatch.DEIDENTIFY && !streamed;
		String prompt = Screenings.userPrompt(params, REPROMPT_NOTE);
		Screenings.Bound bound = Screenings.bind(this.screening,
				ScreeningRequest.response(CALLER, "", null).withTemplate(this.template), this.tenants.tenant(invocation),
				TenantSource.attributes(invocation));
		Refusal tenantRefused = bound.refusal();
		if (tenantRefused != null) {
			return fatal(Screenings.message(tenantRefused), tenantRefused.exception());
		}
		ScreeningDecision decision = this.screening.screen(ScreeningRequest.response(CALLER, text, prompt)
			.withTemplate(bound.template())
			.withOnMatch(deidentify ? MatchAction.DEIDENTIFY : MatchAction.BLOCK)
			.withReplaceable(deidentify));
		if (decision instanceof Deidentified deidentified) {
			return successWith(deidentified.text());
		}
		if (decision instanceof Refusal refusal) {
			String message = Screenings.message(refusal);
			if (refusal instanceof Blocked && this.onMatch == OnMatch.REPROMPT && !streamed && params != null
					&& this.reprompted.put(params, Boolean.TRUE) == null) {
				return reprompt(message, refusal.exception(), REPROMPT_NOTE);
			}
			return fatal(message, refusal.exception());
		}
		return success();
	}

	/**
	 * Whether the AI service method answers as a stream: one that does not return its answer whole. A method
	 * that cannot be told is taken as streamed, so that nothing is rewritten that LangChain4j could replay.
	 */
	private boolean streamed(@Nullable InvocationContext invocation) {
		if (invocation == null || invocation.interfaceName() == null || invocation.methodName() == null) {
			return true;
		}
		String key = invocation.interfaceName() + '#' + invocation.methodName();
		return this.streamedMethods.computeIfAbsent(key,
				(ignored) -> returnsStream(invocation.interfaceName(), invocation.methodName()));
	}

	private static boolean returnsStream(String interfaceName, String methodName) {
		try {
			Class<?> service = ClassUtils.forName(interfaceName, ClassUtils.getDefaultClassLoader());
			boolean found = false;
			for (Method method : service.getMethods()) {
				if (method.getName().equals(methodName)) {
					found = true;
					if (isStream(method.getReturnType())) {
						return true;
					}
				}
			}
			return !found;
		}
		catch (ClassNotFoundException | LinkageError ex) {
			return true;
		}
	}

	private static boolean isStream(Class<?> type) {
		String name = type.getName();
		return name.equals("dev.langchain4j.service.TokenStream") || name.startsWith("reactor.core.publisher.")
				|| name.startsWith("kotlinx.coroutines.flow.") || name.equals("java.util.concurrent.Flow$Publisher")
				|| name.equals("org.reactivestreams.Publisher");
	}

	/**
	 * What a match in the model's answer does.
	 */
	public enum OnMatch {

		/** End the call with LangChain4j's {@code OutputGuardrailException}. */
		BLOCK,

		/**
		 * Go on with Sensitive Data Protection's de-identified text when it is the only filter that matched;
		 * otherwise, and on a streamed answer, block.
		 */
		DEIDENTIFY,

		/**
		 * Ask the model once more, with {@link #REPROMPT_NOTE} added to the conversation; a second answer that
		 * matches is blocked. A streamed answer is blocked at once.
		 */
		REPROMPT

	}

}
