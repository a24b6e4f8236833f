package dev.modelarmor.ai.tool;

import java.util.List;
import java.util.Map;
import java.util.Objects;

import dev.modelarmor.ai.tool.ModelArmorToolOptions.OnBlockedTool;
import dev.modelarmor.screening.ModelArmorScreening;
import dev.modelarmor.screening.ModelArmorTenant;
import dev.modelarmor.screening.Phase;
import dev.modelarmor.screening.ScreeningDecision;
import dev.modelarmor.screening.ScreeningDecision.Deidentified;
import dev.modelarmor.screening.ScreeningDecision.Refusal;
import dev.modelarmor.screening.ScreeningRequest;
import org.jspecify.annotations.Nullable;

import org.springframework.ai.tool.definition.ToolDefinition;

/**
 * Screens what passes between a model and its tools, with the decision policy of {@link ModelArmorScreening}:
 * <ul>
 * <li>the <strong>arguments</strong> of a tool call, which the model wrote, as model output
 * ({@code sanitizeModelResponse}) before the tool runs, since a tool can send mail or run SQL
 * ({@link Phase#TOOL_CALL});</li>
 * <li>the tool's <strong>result</strong>, which the tool fetched from anywhere, as content going to the
 * model ({@code sanitizeUserPrompt}, where the prompt-injection filter runs) before the model reads it
 * ({@link Phase#TOOL_RESULT});</li>
 * <li>the tool's <strong>definition</strong> (its name, description and the words of its input schema),
 * which its author or an MCP server wrote and the model reads as instructions, as content going to the
 * model before the tool is offered ({@link Phase#TOOL_DEFINITION}): a tool whose definition is blocked
 * is withheld from the model, and does not run if the model calls it anyway. An unchanged definition is
 * screened once.</li>
 * </ul>
 * Text longer than the filters read is screened in overlapping windows. Blank text is not screened. Log
 * lines name the tool, never its arguments, result or description. Wrap a tool with
 * {@link ModelArmorToolCallback#wrap(org.springframework.ai.tool.ToolCallback, ModelArmorToolScreener)}.
 * Thread-safe.
 */
public final class ModelArmorToolScreener {

	private final ModelArmorScreening screening;

	private final @Nullable String template;

	private final ModelArmorToolOptions options;

	private final ModelArmorToolDefinitionScreening definitions;

	/**
	 * Creates a tool screener that screens with the default template.
	 * @param screening screens and decides
	 * @param options how blocked calls and results are handled
	 */
	public ModelArmorToolScreener(ModelArmorScreening screening, ModelArmorToolOptions options) {
		this(screening, null, options);
	}

	/**
	 * Creates a tool screener.
	 * @param screening screens and decides
	 * @param template the template id to screen with, or {@code null} for the default
	 * @param options how blocked calls and results are handled
	 */
	public ModelArmorToolScreener(ModelArmorScreening screening, @Nullable String template,
			ModelArmorToolOptions options) {
		this(screening, template, options, true);
	}

	/**
	 * Creates a tool screener.
	 * @param screening screens and decides
	 * @param template the template id to screen with, or {@code null} for the default
	 * @param options how blocked calls, results and definitions are handled
	 * @param failOpen whether {@code screening} fails open ({@code modelarmor.screening.fail-open}): then a
	 * definition that passed is screened again on the next call, since its pass may have been an outage let
	 * through; the other constructors assume it does
	 */
	public ModelArmorToolScreener(ModelArmorScreening screening, @Nullable String template,
			ModelArmorToolOptions options, boolean failOpen) {
		this.screening = Objects.requireNonNull(screening, "screening");
		this.template = template;
		this.options = Objects.requireNonNull(options, "options");
		this.definitions = new ModelArmorToolDefinitionScreening(screening, template, options, failOpen);
	}

	/**
	 * How this screener acts.
	 * @return the options
	 */
	public ModelArmorToolOptions options() {
		return this.options;
	}

	/**
	 * Screens the arguments of a tool call before the tool runs. A match that de-identification could
	 * rewrite blocks: the arguments are JSON that the tool parses.
	 * @param toolName the tool's name, for log lines
	 * @param arguments the arguments the model wrote
	 * @return the arguments to run the tool with, or the refusal to return instead of running it
	 * @throws RuntimeException the refusal's exception when {@link OnBlockedTool#THROW}
	 */
	public Screened screenArguments(String toolName, String arguments) {
		return screen(toolName, Phase.TOOL_CALL, arguments, false, Map.of());
	}

	/**
	 * Screens the arguments of a tool call, as {@link #screenArguments(String, String)}, with the template the
	 * {@link dev.modelarmor.screening.ModelArmorTemplateResolver} chooses for the tool context's tenant
	 * ({@link ModelArmorTenant#KEY}) when this screener names no template.
	 * @param toolName the tool's name, for log lines
	 * @param arguments the arguments the model wrote
	 * @param toolContext the tool context of the call
	 * @return the arguments to run the tool with, or the refusal to return instead of running it
	 */
	public Screened screenArguments(String toolName, String arguments, Map<String, ? extends @Nullable Object> toolContext) {
		return screen(toolName, Phase.TOOL_CALL, arguments, false, toolContext);
	}

	/**
	 * Screens a tool's result before the model reads it.
	 * @param toolName the tool's name, for log lines
	 * @param result what the tool returned
	 * @return the result (de-identified where the match action says so), or the refusal in its place
	 * @throws RuntimeException the refusal's exception when {@link OnBlockedTool#THROW}
	 */
	public Screened screenResult(String toolName, String result) {
		return screen(toolName, Phase.TOOL_RESULT, result, true, Map.of());
	}

	/**
	 * Screens a tool's result, as {@link #screenResult(String, String)}, with the template chosen for the tool
	 * context's tenant as {@link #screenArguments(String, String, Map)} does.
	 * @param toolName the tool's name, for log lines
	 * @param result what the tool returned
	 * @param toolContext the tool context of the call
	 * @return the result (de-identified where the match action says so), or the refusal in its place
	 */
	public Screened screenResult(String toolName, String result, Map<String, ? extends @Nullable Object> toolContext) {
		return screen(toolName, Phase.TOOL_RESULT, result, true, toolContext);
	}

	/**
	 * Screens the definitions of the tools to offer a model, each once while it does not change.
	 * @param definitions the definitions
	 * @return those that passed, in their order: the others are withheld from the model
	 * @throws RuntimeException the refusal's exception when {@link OnBlockedTool#THROW} and one is blocked
	 */
	public List<ToolDefinition> screenDefinitions(List<ToolDefinition> definitions) {
		return definitions.isEmpty() ? definitions : this.definitions.offered(definitions);
	}

	/**
	 * Screens the definitions of the tools to offer a model, as {@link #screenDefinitions(List)}, with the
	 * template the {@link dev.modelarmor.screening.ModelArmorTemplateResolver} chooses for the tool context's
	 * tenant ({@link ModelArmorTenant#KEY}) when this screener names no template; a tenant it refuses is offered
	 * no tool.
	 * @param definitions the definitions
	 * @param toolContext the tool context of the call
	 * @return those that passed, in their order: the others are withheld from the model
	 * @throws RuntimeException the refusal's exception when {@link OnBlockedTool#THROW} and one is blocked
	 */
	public List<ToolDefinition> screenDefinitions(List<ToolDefinition> definitions,
			Map<String, ? extends @Nullable Object> toolContext) {
		return definitions.isEmpty() ? definitions : this.definitions.offered(definitions, toolContext);
	}

	/**
	 * Whether a tool may run: whether its definition passed (screened once while it does not change), so
	 * that a withheld tool does not run when the model calls it anyway.
	 * @param definition the tool's definition
	 * @return whether it passed
	 * @throws RuntimeException the refusal's exception when {@link OnBlockedTool#THROW} and it is blocked
	 */
	public boolean offers(ToolDefinition definition) {
		return !this.definitions.offered(List.of(definition)).isEmpty();
	}

	/**
	 * Whether a tool may run for a call: whether its definition passed the template of the tool context's
	 * tenant, as {@link #screenDefinitions(List, Map)} decides.
	 * @param definition the tool's definition
	 * @param toolContext the tool context of the call
	 * @return whether it passed
	 * @throws RuntimeException the refusal's exception when {@link OnBlockedTool#THROW} and it is blocked
	 */
	public boolean offers(ToolDefinition definition, Map<String, ? extends @Nullable Object> toolContext) {
		return !this.definitions.offered(List.of(definition), toolContext).isEmpty();
	}

	private Screened screen(String toolName, Phase phase, String text, boolean replaceable,
			Map<String, ? extends @Nullable Object> toolContext) {
		if (text.isBlank()) {
			return new Screened(text, false);
		}
		String caller = "tool " + ModelArmorToolDefinitionText.loggable(toolName);
		ScreeningDecision decision = this.screening.screen(ScreeningRequest.of(phase, caller, text)
			.withTemplate(this.template)
			.withOnMatch(this.options.onMatch())
			.withReplaceable(replaceable), ModelArmorTenant.of(toolContext), toolContext);
		if (decision instanceof Refusal refusal) {
			if (this.options.onBlock() == OnBlockedTool.THROW) {
				throw refusal.exception();
			}
			return new Screened(this.options.refusal(), true);
		}
		if (decision instanceof Deidentified deidentified) {
			return new Screened(deidentified.text(), false);
		}
		return new Screened(text, false);
	}

	/**
	 * What screening left of a tool's arguments or result.
	 *
	 * @param text the text to go on with: the screened (possibly de-identified) text, or the refusal
	 * @param refused whether the text is the refusal, so that a blocked call's tool does not run
	 */
	public record Screened(String text, boolean refused) {
	}

}
