package dev.modelarmor.langchain4j;

import java.util.HashMap;
import java.util.Map;

import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.invocation.InvocationParameters;
import dev.modelarmor.screening.ModelArmorTenant;
import org.jspecify.annotations.Nullable;

/**
 * Where the LangChain4j integrations find the tenant of an AI service call, which the starter's
 * {@link dev.modelarmor.screening.ModelArmorTemplateResolver} turns into a template and a location
 * ({@code modelarmor.tenants.<name>.*}). A guardrail given a template of its own screens with that one.
 * The resolver's attributes are the call's invocation parameters, with the chat memory id under
 * {@link #CHAT_MEMORY_ID}.
 */
public enum TenantSource {

	/**
	 * The invocation parameter {@value ModelArmorTenant#KEY} ({@code InvocationParameters.from(ModelArmorTenant.KEY,
	 * "acme")} passed to the AI service method), else the tenant of the servlet request being handled on the
	 * calling thread ({@code modelarmor.tenant.header}).
	 */
	INVOCATION_PARAMETER,

	/**
	 * The invocation parameter {@value ModelArmorTenant#KEY}, else the chat memory id ({@code @MemoryId}) when it
	 * is not LangChain4j's {@code default}, else the servlet request's tenant: for applications that keep one
	 * memory per tenant.
	 */
	CHAT_MEMORY_ID;

	/** The attribute under which the resolver finds the call's chat memory id, when it has one. */
	public static final String CHAT_MEMORY_ID_ATTRIBUTE = "langchain4j.chat-memory-id";

	/** The memory id LangChain4j gives a call whose AI service method has no {@code @MemoryId}. */
	private static final String LANGCHAIN4J_DEFAULT_MEMORY_ID = "default";

	/**
	 * The tenant of a call.
	 * @param parameters the call's invocation parameters, or {@code null}
	 * @param chatMemoryId the call's chat memory id, or {@code null}
	 * @return the tenant, or {@code null} when the call names none
	 */
	@Nullable String tenant(@Nullable InvocationParameters parameters, @Nullable Object chatMemoryId) {
		Object named = (parameters != null) ? parameters.get(ModelArmorTenant.KEY) : null;
		if (named != null) {
			return named.toString();
		}
		if (this == CHAT_MEMORY_ID && chatMemoryId != null
				&& !chatMemoryId.toString().equals(LANGCHAIN4J_DEFAULT_MEMORY_ID)) {
			return chatMemoryId.toString();
		}
		return ModelArmorTenant.current();
	}

	/**
	 * The tenant of a call.
	 * @param invocation the call, or {@code null} when not known
	 * @return the tenant, or {@code null}
	 */
	@Nullable String tenant(@Nullable InvocationContext invocation) {
		return (invocation != null) ? tenant(invocation.invocationParameters(), invocation.chatMemoryId())
				: tenant(null, null);
	}

	/** What the resolver is told of a call: its invocation parameters and its chat memory id. */
	static Map<String, @Nullable Object> attributes(@Nullable InvocationParameters parameters,
			@Nullable Object chatMemoryId) {
		Map<String, @Nullable Object> attributes = new HashMap<>();
		if (parameters != null) {
			attributes.putAll(parameters.asMap());
		}
		if (chatMemoryId != null) {
			attributes.put(CHAT_MEMORY_ID_ATTRIBUTE, chatMemoryId);
		}
		return attributes;
	}

	static Map<String, @Nullable Object> attributes(@Nullable InvocationContext invocation) {
		return (invocation != null) ? attributes(invocation.invocationParameters(), invocation.chatMemoryId())
				: Map.of();
	}

}
