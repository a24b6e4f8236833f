package dev.modelarmor.autoconfigure.langchain4j;

import dev.modelarmor.langchain4j.ModelArmorOutputGuardrail;
import dev.modelarmor.langchain4j.ModelArmorToolOutputGuardrail;
import dev.modelarmor.langchain4j.TenantSource;
import dev.modelarmor.screening.MatchAction;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings of the LangChain4j integration ({@code modelarmor.langchain4j.*}). Fail-open, the windows, the verdict
 * cache and the retries are the screening layer's ({@code modelarmor.screening.*}, {@code modelarmor.retry.*}).
 */
@ConfigurationProperties("modelarmor.langchain4j")
public class ModelArmorLangChain4jProperties {

	/**
	 * Template the LangChain4j guardrails screen with; unset: the template of the call's tenant
	 * (modelarmor.tenants.*), else modelarmor.template-id.
	 */
	private @Nullable String template;

	/**
	 * Where the guardrails find a call's tenant: invocation-parameter (the invocation parameter modelarmor.tenant,
	 * else the servlet request's tenant) or chat-memory-id (the invocation parameter, else the chat memory id,
	 * else the servlet request's tenant).
	 */
	private TenantSource tenantSource = TenantSource.INVOCATION_PARAMETER;

	private final Input input = new Input();

	private final Output output = new Output();

	private final Tools tools = new Tools();

	public @Nullable String getTemplate() {
		return this.template;
	}

	public void setTemplate(@Nullable String template) {
		this.template = template;
	}

	public TenantSource getTenantSource() {
		return this.tenantSource;
	}

	public void setTenantSource(TenantSource tenantSource) {
		this.tenantSource = tenantSource;
	}

	public Input getInput() {
		return this.input;
	}

	public Output getOutput() {
		return this.output;
	}

	public Tools getTools() {
		return this.tools;
	}

	/**
	 * The user message.
	 */
	public static class Input {

		/**
		 * What a match in the user message does: block, deidentify (when Sensitive Data Protection is the only
		 * match) or log-only.
		 */
		private MatchAction onMatch = MatchAction.BLOCK;

		public MatchAction getOnMatch() {
			return this.onMatch;
		}

		public void setOnMatch(MatchAction onMatch) {
			this.onMatch = onMatch;
		}

	}

	/**
	 * The model's answer.
	 */
	public static class Output {

		/**
		 * What a match in the model's answer does: block, deidentify, or reprompt (ask the model once more).
		 * A streamed answer is blocked in every case.
		 */
		private ModelArmorOutputGuardrail.OnMatch onMatch = ModelArmorOutputGuardrail.OnMatch.BLOCK;

		public ModelArmorOutputGuardrail.OnMatch getOnMatch() {
			return this.onMatch;
		}

		public void setOnMatch(ModelArmorOutputGuardrail.OnMatch onMatch) {
			this.onMatch = onMatch;
		}

	}

	/**
	 * Tool calls, tool results and tool specifications.
	 */
	public static class Tools {

		/**
		 * What the model reads in place of a tool result that was refused.
		 */
		private String refusal = ModelArmorToolOutputGuardrail.DEFAULT_REFUSAL;

		public String getRefusal() {
			return this.refusal;
		}

		public void setRefusal(String refusal) {
			this.refusal = refusal;
		}

	}

}
