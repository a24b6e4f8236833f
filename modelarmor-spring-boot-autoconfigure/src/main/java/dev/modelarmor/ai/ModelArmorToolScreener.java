package dev.modelarmor.ai;

import java.util.Objects;

import dev.modelarmor.ai.ModelArmorToolOptions.OnBlockedTool;
import dev.modelarmor.screening.ModelArmorScreening;
import dev.modelarmor.screening.Phase;
import dev.modelarmor.screening.ScreeningDecision;
import dev.modelarmor.screening.ScreeningDecision.Deidentified;
import dev.modelarmor.screening.ScreeningDecision.Refusal;
import dev.modelarmor.screening.ScreeningRequest;
import org.jspecify.annotations.Nullable;

/**
 * Screens what passes between a model and its tools, with the decision policy of {@link ModelArmorScreening}:
 * <ul>
 * <li>the <strong>arguments</strong> of a tool call, which the model wrote, as model output
 * ({@code sanitizeModelResponse}) before the tool runs, since a tool can send mail or run SQL
 * ({@link Phase#TOOL_CALL});</li>
 * <li>the tool's <strong>result</strong>, which the tool fetched from anywhere, as content going to the
 * model ({@code sanitizeUserPrompt}, where the prompt-injection filter runs) before the model reads it
 * ({@link Phase#TOOL_RESULT}).</li>
 * </ul>
 * Text longer than the filters read is screened in overlapping windows. Blank text is not screened. Log
 * lines name the tool, never its arguments or result. Wrap a tool with
 * {@link ModelArmorToolCallback#wrap(org.springframework.ai.tool.ToolCallback, ModelArmorToolScreener)}.
 * Thread-safe.
 */
public final class ModelArmorToolScreener {

	private final ModelArmorScreening screening;

	private final @Nullable String template;

	private final ModelArmorToolOptions options;

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
		this.screening = Objects.requireNonNull(screening, "screening");
		this.template = template;
		this.options = Objects.requireNonNull(options, "options");
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
		return screen(toolName, Phase.TOOL_CALL, arguments, false);
	}

	/**
	 * Screens a tool's result before the model reads it.
	 * @param toolName the tool's name, for log lines
	 * @param result what the tool returned
	 * @return the result (de-identified where the match action says so), or the refusal in its place
	 * @throws RuntimeException the refusal's exception when {@link OnBlockedTool#THROW}
	 */
	public Screened screenResult(String toolName, String result) {
		return screen(toolName, Phase.TOOL_RESULT, result, true);
	}

	private Screened screen(String toolName, Phase phase, String text, boolean replaceable) {
		if (text.isBlank()) {
			return new Screened(text, false);
		}
		ScreeningDecision decision = this.screening.screen(ScreeningRequest.of(phase, "tool " + toolName, text)
			.withTemplate(this.template)
			.withOnMatch(this.options.onMatch())
			.withReplaceable(replaceable));
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
