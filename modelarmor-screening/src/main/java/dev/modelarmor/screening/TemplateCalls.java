package dev.modelarmor.screening;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;

import dev.modelarmor.client.DataItem;
import dev.modelarmor.client.ModelArmorOperations;
import dev.modelarmor.client.SanitizationResult;
import dev.modelarmor.client.SanitizeOptions;
import dev.modelarmor.client.TemplateReference;
import dev.modelarmor.screening.cache.VerdictCache;
import org.jspecify.annotations.Nullable;

import org.springframework.util.StringUtils;

/**
 * The Model Armor calls of {@link ModelArmorScreening}, per template: text through the {@link LongTextScreening}
 * bound to the template (in windows when long), other items through its client, on the calling thread or
 * without blocking it. The calls of the templates requests name are kept, up to {@value #MAX_KEPT_TEMPLATES}
 * templates; beyond them, each call binds its template anew. Thread-safe.
 */
final class TemplateCalls {

	/** Templates whose screenings are kept for the next call; beyond them, each call binds its template anew. */
	private static final int MAX_KEPT_TEMPLATES = 64;

	private final LongTextScreening longText;

	private final ModelArmorTaskExecutor executor;

	private final Map<String, Bound> byTemplate = new ConcurrentHashMap<>();

	/**
	 * Creates the calls.
	 * @param longText the long-text screening of the client's own template
	 * @param executor where the calls of a blocking client run when they must not block their caller
	 */
	TemplateCalls(LongTextScreening longText, ModelArmorTaskExecutor executor) {
		this.longText = longText;
		this.executor = executor;
	}

	/**
	 * The same calls, looking verdicts of whole texts up in a cache first.
	 * @param cache the verdict cache
	 * @return calls that use it, for every template
	 */
	TemplateCalls withCache(VerdictCache cache) {
		return new TemplateCalls(this.longText.withCache(cache), this.executor);
	}

	/**
	 * The calls of one template, kept for the next call of the same template.
	 * @param template the template as the request names it, or {@code null} for the client's own
	 * @return its calls
	 * @throws IllegalArgumentException when the template is a malformed reference
	 */
	Bound bound(@Nullable String template) {
		if (!StringUtils.hasLength(template)) {
			return new Bound(this.longText);
		}
		Bound kept = this.byTemplate.get(template);
		if (kept != null) {
			return kept;
		}
		Bound bound = new Bound(TemplateReference.isReference(template)
				? this.longText.withTemplate(TemplateReference.parse(template)) : this.longText.withTemplate(template));
		if (this.byTemplate.size() < MAX_KEPT_TEMPLATES) {
			this.byTemplate.putIfAbsent(template, bound);
		}
		return bound;
	}

	/** The client and the long-text screening of one template. */
	final class Bound {

		private final LongTextScreening longText;

		Bound(LongTextScreening longText) {
			this.longText = longText;
		}

		SanitizationResult call(ScreeningRequest request) {
			String text = textOf(request);
			if (text != null) {
				return !request.phase().isModelOutput() ? this.longText.sanitizeUserPrompt(text)
						: this.longText.sanitizeModelResponse(text, request.userPrompt());
			}
			DataItem item = Objects.requireNonNull(request.item());
			ModelArmorOperations client = this.longText.operations();
			SanitizationResult result = !request.phase().isModelOutput() ? client.sanitizeUserPrompt(item)
					: client.sanitizeModelResponse(item, request.userPrompt());
			if (result == null) {
				throw new IllegalStateException(client.getClass().getName() + "." + (!request.phase().isModelOutput()
						? "sanitizeUserPrompt(DataItem)" : "sanitizeModelResponse(DataItem, String)")
						+ " returned null instead of a SanitizationResult; every call of a ModelArmorOperations "
						+ "must return one");
			}
			return result;
		}

		CompletableFuture<SanitizationResult> callAsync(ScreeningRequest request) {
			String text = textOf(request);
			if (text != null) {
				return !request.phase().isModelOutput() ? this.longText.sanitizeUserPromptAsync(text)
						: this.longText.sanitizeModelResponseAsync(text, request.userPrompt());
			}
			ModelArmorOperations client = this.longText.operations();
			if (client.isNonBlocking()) {
				DataItem item = Objects.requireNonNull(request.item());
				return !request.phase().isModelOutput()
						? client.sanitizeUserPromptAsync(item, SanitizeOptions.NONE,
								TemplateCalls.this.executor.asExecutor())
						: client.sanitizeModelResponseAsync(item, request.userPrompt(), SanitizeOptions.NONE,
								TemplateCalls.this.executor.asExecutor());
			}
			try {
				return CompletableFuture.supplyAsync(() -> call(request),
						TemplateCalls.this.executor.asExecutor());
			}
			catch (RejectedExecutionException ex) {
				return CompletableFuture.completedFuture(call(request));
			}
		}

		private static @Nullable String textOf(ScreeningRequest request) {
			DataItem item = request.item();
			return (request.text() != null) ? request.text() : (item != null) ? item.text() : null;
		}

	}

}
