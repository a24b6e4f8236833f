package dev.modelarmor.guard;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.modelarmor.screening.ModelArmorScreening;
import dev.modelarmor.screening.Phase;
import dev.modelarmor.screening.ScreeningDecision;
import dev.modelarmor.screening.ScreeningRequest;
import dev.modelarmor.screening.media.MediaItem;
import dev.modelarmor.screening.media.MediaItems;
import org.jspecify.annotations.Nullable;

import org.springframework.context.expression.MethodBasedEvaluationContext;
import org.springframework.expression.Expression;

/**
 * Where a guarded method's prompt is: an argument, or a SpEL expression over the arguments. The prompt
 * can be replaced by de-identified text only when it is a whole argument that accepts a {@code String}.
 * A prompt that is media (a {@code DataItem} of bytes, a Spring AI {@code Media}, a {@code Resource} or a
 * {@code MultipartFile}, read by {@link MediaItems}) is screened as such before the body runs and is
 * never replaced: a match, a redactable one included, blocks.
 *
 * @param expression the SpEL, or {@code null} when the prompt is the argument itself
 * @param argumentIndex the argument that holds the prompt, or -1 when it lies deeper
 * @param replaceable whether that argument can take de-identified text
 */
record PromptSource(@Nullable Expression expression, int argumentIndex, boolean replaceable) {

	private static final Pattern INDEXED_ARGUMENT = Pattern.compile("#[pa](\\d+)");

	private static final Pattern NAMED_ARGUMENT = Pattern.compile("#([A-Za-z_$][A-Za-z0-9_$]*)");

	/**
	 * The prompt source of a method.
	 * @param method the guarded method
	 * @param expression the {@code prompt} attribute, possibly empty
	 * @return the source, or {@code null} when the method has no text or media argument and no expression
	 */
	static @Nullable PromptSource of(Method method, String expression) {
		if (expression.isBlank()) {
			Class<?>[] types = method.getParameterTypes();
			for (int i = 0; i < types.length; i++) {
				if (CharSequence.class.isAssignableFrom(types[i])) {
					return new PromptSource(null, i, types[i].isAssignableFrom(String.class));
				}
			}
			for (int i = 0; i < types.length; i++) {
				if (MediaItems.isMedia(types[i])) {
					return new PromptSource(null, i, false);
				}
			}
			return null;
		}
		Expression parsed = GuardExpressions.parse(expression, method, "prompt", null);
		int index = wholeArgument(method, expression.strip());
		boolean replaceable = index >= 0 && method.getParameterTypes()[index].isAssignableFrom(String.class);
		return new PromptSource(parsed, index, replaceable);
	}

	@Nullable String read(Method method, @Nullable Object[] arguments) {
		if (this.expression == null) {
			return GuardExpressions.text(arguments[this.argumentIndex], method, "prompt");
		}
		return GuardExpressions.evaluate(this.expression, method, arguments, null, "prompt");
	}

	/**
	 * Reads the prompt as text, as {@link #read(Method, Object[])} does; a prompt that is media is screened
	 * here instead, when the method screens its prompt, and reads as no text.
	 * @param method the guarded method
	 * @param arguments its arguments
	 * @param guarded how it is guarded
	 * @param screening screens the media
	 * @param templates chooses the media's template, as the text's
	 * @return the prompt's text, or {@code null} when there is none or it is media
	 * @throws RuntimeException the refusal's exception when the media is refused
	 */
	@Nullable String read(Method method, @Nullable Object[] arguments, GuardedMethod guarded,
			ModelArmorScreening screening, GuardTemplates templates) {
		Object value = unwrap((this.expression == null) ? arguments[this.argumentIndex] : evaluate(method, arguments));
		if (value == null || value instanceof CharSequence) {
			return (value != null) ? value.toString() : null;
		}
		MediaItem media = MediaItems.of(value);
		if (media == null) {
			return GuardExpressions.text(value, method, "prompt");
		}
		if (guarded.screenPrompt()) {
			ScreeningDecision decision = (media instanceof MediaItem.Screenable screenable)
					? templates.screen(screening, guarded, ScreeningRequest.prompt(guarded.name(), screenable.item())
						.withTemplate(guarded.template())
						.withOnMatch(guarded.onMatch())
						.withReplaceable(false))
					: screening.unscreened(guarded.name(), Phase.PROMPT, guarded.template(),
							(MediaItem.Unscreened) media);
			if (decision instanceof ScreeningDecision.Refusal refusal) {
				throw refusal.exception();
			}
		}
		return null;
	}

	private @Nullable Object evaluate(Method method, @Nullable Object[] arguments) {
		Expression parsed = java.util.Objects.requireNonNull(this.expression);
		return parsed.getValue(new MethodBasedEvaluationContext(null, method, arguments, GuardExpressions.PARAMETER_NAMES));
	}

	private static @Nullable Object unwrap(@Nullable Object value) {
		return (value instanceof Optional<?> optional) ? optional.orElse(null) : value;
	}

	void replace(@Nullable Object[] arguments, String text) {
		arguments[this.argumentIndex] = text;
	}

	/**
	 * The index of the argument that an expression names as a whole ({@code #p0}, {@code #name}), or -1.
	 * The expression has been parsed, so the index or the name is one of the method's parameters.
	 */
	private static int wholeArgument(Method method, String expression) {
		Matcher indexed = INDEXED_ARGUMENT.matcher(expression);
		if (indexed.matches()) {
			return Integer.parseInt(indexed.group(1));
		}
		Matcher named = NAMED_ARGUMENT.matcher(expression);
		@Nullable String @Nullable [] names = GuardExpressions.PARAMETER_NAMES.getParameterNames(method);
		return (named.matches() && names != null) ? Arrays.asList(names).indexOf(named.group(1)) : -1;
	}

}
