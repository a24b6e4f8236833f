package dev.modelarmor.screening;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

import dev.modelarmor.client.ModelArmorInputTooLargeException;
import dev.modelarmor.client.SanitizationResult;
import dev.modelarmor.internal.Utf8;
import dev.modelarmor.screening.WindowCutter.Plan;
import dev.modelarmor.screening.WindowCutter.Window;
import dev.modelarmor.screening.cache.VerdictLookup;
import org.jspecify.annotations.Nullable;

/**
 * One text for {@link LongTextScreening} to screen, and whether it is one call or a run of windows.
 *
 * @param operation the cache's name of the operation ({@link VerdictLookup#USER_PROMPT} or
 * {@link VerdictLookup#MODEL_RESPONSE})
 * @param what the name log lines and refusals give the text
 * @param text the text
 * @param userPrompt the prompt it answers, for a response, else {@code null}
 * @param call the client's blocking call for one window
 * @param asyncCall the client's non-blocking call for one window
 */
record LongText(String operation, String what, String text, @Nullable String userPrompt,
		Function<String, SanitizationResult> call, Function<String, CompletableFuture<SanitizationResult>> asyncCall) {

	/**
	 * The windows of the text, or {@code null} when it is one call.
	 * @param settings the window size, overlap and most windows
	 * @return the windows, at least two, or {@code null}
	 * @throws ModelArmorInputTooLargeException when the text needs more than the most windows
	 */
	@Nullable List<Window> windows(WindowSettings settings) {
		if (this.text.length() <= settings.size() / NormalizedUtf8.MAX_CODE_POINT_COST) {
			// Too short to need a window boundary whatever its characters: no need to measure it.
			return null;
		}
		Plan plan = WindowCutter.split(this.text, settings);
		if (!plan.complete()) {
			throw tooLarge(plan, settings);
		}
		return (plan.windows().size() == 1) ? null : plan.windows();
	}

	private ModelArmorInputTooLargeException tooLarge(Plan plan, WindowSettings settings) {
		long size = Utf8.length(this.text);
		List<Window> parts = plan.windows();
		long reached = Utf8.length(this.text.subSequence(0, parts.get(parts.size() - 1).end()));
		return new ModelArmorInputTooLargeException(size, reached, "The " + this.what + " is " + size
				+ " bytes (UTF-8); screened whole it needs more than " + settings.maxWindows() + " windows of "
				+ settings.size() + " bytes, which reach only its first " + reached
				+ " bytes. Shorten it, or raise modelarmor.screening.window.max-windows (WindowSettings.maxWindows)");
	}

}
