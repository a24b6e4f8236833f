package dev.modelarmor.screening;

import java.util.Objects;

import dev.modelarmor.client.DataItem;
import org.jspecify.annotations.Nullable;

/**
 * What to screen and how to decide: one side of a call (the prompt or the response), as text of any
 * length or as a {@link DataItem}, with the template to screen it with and what a match does. Made by
 * {@link #prompt(String, String)} or {@link #response(String, String, String)} and adjusted with the
 * {@code with…} methods.
 *
 * @param phase which side of the call
 * @param text the text to screen, or {@code null} when an {@code item} is screened
 * @param item the item to screen, or {@code null} when {@code text} is screened; an item that holds text is
 * screened as that text (in windows when it is long)
 * @param userPrompt for a response, the prompt it answers, sent along as context; {@code null} for none
 * @param template the template id to screen with, or {@code null} (or empty) for the client's own
 * @param onMatch what a match does
 * @param replaceable whether the caller can go on with de-identified text
 * @param caller names the calling code in log lines, e.g. {@code ChatService.chat(String)}; never content
 */
public record ScreeningRequest(Phase phase, @Nullable String text, @Nullable DataItem item, @Nullable String userPrompt,
		@Nullable String template, MatchAction onMatch, boolean replaceable, String caller) {

	/**
	 * Checks the request.
	 * @param phase which side of the call
	 * @param text the text, or {@code null}
	 * @param item the item, or {@code null}
	 * @param userPrompt the prompt a response answers, or {@code null}
	 * @param template the template id, or {@code null}
	 * @param onMatch what a match does
	 * @param replaceable whether de-identified text can be used
	 * @param caller the caller's name for log lines
	 */
	public ScreeningRequest {
		Objects.requireNonNull(phase, "phase must not be null");
		Objects.requireNonNull(onMatch, "onMatch must not be null");
		Objects.requireNonNull(caller, "caller must not be null");
		if ((text == null) == (item == null)) {
			throw new IllegalArgumentException("A screening request holds either text or an item");
		}
	}

	/**
	 * Text of any phase to screen with the default template; a match blocks. Text that goes to a model
	 * is screened as a prompt, text a model wrote as a response ({@link Phase#isModelOutput()}).
	 * @param phase which side of the call
	 * @param caller the caller's name for log lines
	 * @param text the text
	 * @return the request
	 */
	public static ScreeningRequest of(Phase phase, String caller, String text) {
		return new ScreeningRequest(phase, Objects.requireNonNull(text, "text must not be null"), null, null, null,
				MatchAction.BLOCK, false, caller);
	}

	/**
	 * A prompt to screen with the default template; a match blocks.
	 * @param caller the caller's name for log lines
	 * @param text the prompt
	 * @return the request
	 */
	public static ScreeningRequest prompt(String caller, String text) {
		return new ScreeningRequest(Phase.PROMPT, Objects.requireNonNull(text, "prompt must not be null"), null, null,
				null, MatchAction.BLOCK, false, caller);
	}

	/**
	 * A prompt item (text or a file) to screen with the default template; a match blocks.
	 * @param caller the caller's name for log lines
	 * @param item the prompt
	 * @return the request
	 */
	public static ScreeningRequest prompt(String caller, DataItem item) {
		return new ScreeningRequest(Phase.PROMPT, null, Objects.requireNonNull(item, "prompt must not be null"), null,
				null, MatchAction.BLOCK, false, caller);
	}

	/**
	 * A response to screen with the default template; a match blocks.
	 * @param caller the caller's name for log lines
	 * @param text the response
	 * @param userPrompt the prompt it answers, or {@code null}
	 * @return the request
	 */
	public static ScreeningRequest response(String caller, String text, @Nullable String userPrompt) {
		return new ScreeningRequest(Phase.RESPONSE, Objects.requireNonNull(text, "response must not be null"), null,
				userPrompt, null, MatchAction.BLOCK, false, caller);
	}

	/**
	 * A response item (text or a file) to screen with the default template; a match blocks.
	 * @param caller the caller's name for log lines
	 * @param item the response
	 * @param userPrompt the prompt it answers, or {@code null}
	 * @return the request
	 */
	public static ScreeningRequest response(String caller, DataItem item, @Nullable String userPrompt) {
		return new ScreeningRequest(Phase.RESPONSE, null, Objects.requireNonNull(item, "response must not be null"),
				userPrompt, null, MatchAction.BLOCK, false, caller);
	}

	/**
	 * The same request with another template.
	 * @param template the template id, or {@code null} (or empty) for the client's own
	 * @return the request
	 */
	public ScreeningRequest withTemplate(@Nullable String template) {
		return new ScreeningRequest(this.phase, this.text, this.item, this.userPrompt, template, this.onMatch,
				this.replaceable, this.caller);
	}

	/**
	 * The same request with another match action.
	 * @param onMatch what a match does
	 * @return the request
	 */
	public ScreeningRequest withOnMatch(MatchAction onMatch) {
		return new ScreeningRequest(this.phase, this.text, this.item, this.userPrompt, this.template, onMatch,
				this.replaceable, this.caller);
	}

	/**
	 * The same request, saying whether the caller can go on with de-identified text.
	 * @param replaceable whether it can
	 * @return the request
	 */
	public ScreeningRequest withReplaceable(boolean replaceable) {
		return new ScreeningRequest(this.phase, this.text, this.item, this.userPrompt, this.template, this.onMatch,
				replaceable, this.caller);
	}

	/** Shows the phase, the caller and the sizes, never the content. */
	@Override
	public String toString() {
		String content = (this.text != null) ? "text of " + this.text.length() + " chars" : String.valueOf(this.item);
		return "ScreeningRequest[phase=" + this.phase + ", caller=" + this.caller + ", " + content + ", template="
				+ this.template + ", onMatch=" + this.onMatch + ", replaceable=" + this.replaceable + "]";
	}

}
