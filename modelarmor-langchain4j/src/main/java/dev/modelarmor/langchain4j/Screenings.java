package dev.modelarmor.langchain4j;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.Content;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.guardrail.GuardrailRequestParams;
import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.model.input.PromptTemplate;
import dev.langchain4j.memory.ChatMemory;
import dev.modelarmor.internal.Futures;
import dev.modelarmor.screening.ModelArmorScreening;
import dev.modelarmor.screening.ModelArmorUnknownTenantException;
import dev.modelarmor.screening.ScreeningDecision;
import dev.modelarmor.screening.ScreeningDecision.Refusal;
import dev.modelarmor.screening.ScreeningRequest;
import org.jspecify.annotations.Nullable;

/**
 * What the LangChain4j integrations share: the text of a message, the user's prompt of a call, one decision for
 * several screenings, and names safe for log lines.
 */
final class Screenings {

	private static final int MAX_LOGGED_NAME = 64;

	private Screenings() {
	}

	/**
	 * The text parts of a user message, joined by blank lines, or {@code null} when it has none.
	 */
	static @Nullable String text(UserMessage message) {
		List<String> texts = new ArrayList<>();
		for (Content content : message.contents()) {
			if (content instanceof TextContent text) {
				texts.add(text.text());
			}
		}
		return texts.isEmpty() ? null : String.join("\n\n", texts);
	}

	/**
	 * The user's prompt of the call an answer belongs to, as the user wrote it (before retrieved content was
	 * added): the user message of the invocation, else the AI service's user message template filled in, else the
	 * last user message of the memory other than a reprompt note; {@code null} when there is none.
	 */
	static @Nullable String userPrompt(@Nullable GuardrailRequestParams params, String ignored) {
		if (params == null) {
			return null;
		}
		InvocationContext invocation = params.invocationContext();
		UserMessage user = (invocation != null) ? invocation.userMessage() : null;
		String text = (user != null) ? text(user) : null;
		if (text != null) {
			return text;
		}
		String template = params.userMessageTemplate();
		if (template != null && !template.isBlank()) {
			try {
				Map<String, Object> variables = (params.variables() != null) ? params.variables() : Map.of();
				return PromptTemplate.from(template).apply(variables).text();
			}
			catch (RuntimeException ex) {
				// a template LangChain4j filled in differently: fall back to the memory
			}
		}
		ChatMemory memory = params.chatMemory();
		if (memory != null) {
			List<ChatMessage> messages = memory.messages();
			for (int i = messages.size() - 1; i >= 0; i--) {
				if (messages.get(i) instanceof UserMessage message) {
					String last = text(message);
					if (last != null && !last.equals(ignored)) {
						return last;
					}
				}
			}
		}
		return null;
	}

	/**
	 * Waits for screenings, which the client's retry deadline bounds, and throws what they failed with as it
	 * was thrown.
	 */
	static <T> T await(CompletableFuture<T> screenings) {
		return Futures.join(screenings);
	}

	/**
	 * A name a model or a tool chose, fit for a log line: letters, digits and {@code _ - . :} only, at most
	 * 64 characters.
	 */
	static String loggable(@Nullable String name) {
		if (name == null || name.isEmpty()) {
			return "unnamed";
		}
		StringBuilder safe = new StringBuilder();
		for (int i = 0; i < name.length() && safe.length() < MAX_LOGGED_NAME; i++) {
			char c = name.charAt(i);
			boolean plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'
					|| c == '-' || c == '.' || c == ':';
			safe.append(plain ? c : '?');
		}
		return safe.toString();
	}

	/**
	 * The template a call is screened with: the integration's own, else the one the resolver chooses for the
	 * call's tenant; or the refusal of a tenant the resolver refuses (one WARN line and a metric).
	 * @param screening the starter's screening
	 * @param probe names the caller, the phase and the integration's own template
	 * @param tenant the call's tenant, or {@code null}
	 * @param attributes what the resolver is told of the call
	 */
	static Bound bind(ModelArmorScreening screening, ScreeningRequest probe, @Nullable String tenant,
			Map<String, ? extends @Nullable Object> attributes) {
		try {
			return new Bound(screening.resolve(probe, tenant, attributes).template(), null);
		}
		catch (ModelArmorUnknownTenantException ex) {
			return new Bound(null, (Refusal) screening.unknownTenant(probe));
		}
	}

	/**
	 * The template of one call, or the refusal of its tenant.
	 *
	 * @param template the template to screen with, or {@code null} for {@code modelarmor.template-id}
	 * @param refusal the refusal of a tenant that has no template, or {@code null} to screen
	 */
	record Bound(@Nullable String template, @Nullable Refusal refusal) {
	}

	/** A refusal's message for a guardrail result: the phase and the filters or the reason, never the content. */
	static String message(Refusal refusal) {
		String message = refusal.exception().getMessage();
		return (message != null) ? message : "Model Armor refused the " + refusal.phase().name().toLowerCase(Locale.ROOT);
	}

}
