package dev.modelarmor.screening;

import java.util.Map;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * What a {@link ModelArmorTemplateResolver} chooses a template from: the side of the call, the calling code,
 * the request's tenant (from {@link ModelArmorTenant}) and the integration's own attributes (the Spring AI
 * advisor context, a tool context, a retrieval query's context). Never the text screened.
 *
 * @param phase which side of the call is screened
 * @param caller names the calling code, e.g. {@code ChatService.chat(String)}
 * @param tenant the request's tenant, or {@code null} when the call names none
 * @param attributes the integration's attributes; empty when it has none
 */
public record TemplateContext(Phase phase, String caller, @Nullable String tenant, Map<String, Object> attributes) {

	/**
	 * Checks the context.
	 * @param phase which side
	 * @param caller the calling code
	 * @param tenant the tenant, or {@code null}
	 * @param attributes the attributes
	 */
	public TemplateContext {
		Objects.requireNonNull(phase, "phase must not be null");
		Objects.requireNonNull(caller, "caller must not be null");
		attributes = Map.copyOf(attributes);
	}

}
