package dev.modelarmor.ai;

import java.util.Objects;
import java.util.function.Supplier;

import dev.modelarmor.ai.ModelArmorToolOptions.OnBlockedTool;
import dev.modelarmor.client.SanitizationResult;
import dev.modelarmor.client.WindowedScreening;
import dev.modelarmor.guard.Phase;
import dev.modelarmor.guard.Screener;
import dev.modelarmor.guard.ScreeningDecision;
import dev.modelarmor.guard.ScreeningDecision.Deidentified;
import dev.modelarmor.guard.ScreeningDecision.Refusal;

/**
 * Screens what passes between a model and its tools, with the decision policy of the {@link Screener}:
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

	private final WindowedScreening screening;

	private final Screener screener;

	private final ModelArmorToolOptions options;

	/**
	 * Creates a tool screener.
	 * @param screening screens text of any length, bound to the template to screen with
	 * @param screener the decision policy
	 * @param options how blocked calls and results are handled
	 */
	public ModelArmorToolScreener(WindowedScreening screening, Screener screener, ModelArmorToolOptions options) {
		this.screening = Objects.requireNonNull(screening, "screening");
		this.screener = Objects.requireNonNull(screener, "screener");
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
		return screen(toolName, Phase.TOOL_CALL, arguments, false,
				() -> this.screening.sanitizeModelResponse(arguments, null));
	}

	/**
	 * Screens a tool's result before the model reads it.
	 * @param toolName the tool's name, for log lines
	 * @param result what the tool returned
	 * @return the result (de-identified where the match action says so), or the refusal in its place
	 * @throws RuntimeException the refusal's exception when {@link OnBlockedTool#THROW}
	 */
	public Screened screenResult(String toolName, String result) {
		return screen(toolName, Phase.TOOL_RESULT, result, true, () -> this.screening.sanitizeUserPrompt(result));
	}

	private Screened screen(String toolName, Phase phase, String text, boolean replaceable,
			Supplier<SanitizationResult> call) {
		if (text.isBlank()) {
			return new Screened(text, false);
		}
		ScreeningDecision decision = this.screener.screen("tool " + toolName, phase, this.options.onMatch(),
				replaceable, call);
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
