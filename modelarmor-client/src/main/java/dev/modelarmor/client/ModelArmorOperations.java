package dev.modelarmor.client;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

import dev.modelarmor.client.admin.FloorSettingOperations;
import dev.modelarmor.client.admin.TemplateOperations;
import org.jspecify.annotations.Nullable;

/**
 * Screens LLM prompts and model responses with Google Cloud Model Armor. Every call uses a Model
 * Armor template; {@link #withTemplate(String)} gives the same client bound to another one.
 *
 * <p>Failed calls are retried as Google's retry strategy prescribes; a call that still fails throws a
 * {@link ModelArmorException} (a {@link ModelArmorApiException} for an HTTP error answer).
 *
 * <p>The asynchronous operations ({@link #sanitizeUserPromptAsync}, {@link #sanitizeModelResponseAsync}) end
 * the same way, as a future that completes with the result or fails with that exception. An implementation
 * that has no non-blocking path (test fakes, for example) runs the blocking operation on the executor it is
 * given; {@link ModelArmorTemplate} holds no thread while a call or a retry wait is in flight, and says so
 * with {@link #isNonBlocking()}.
 */
public interface ModelArmorOperations {

	/**
	 * Screens a user prompt before it reaches the model.
	 * @param prompt the prompt text
	 * @return what the template's filters found
	 */
	SanitizationResult sanitizeUserPrompt(String prompt);

	/**
	 * Screens a user prompt given as text or as a document.
	 * @param prompt the prompt
	 * @return what the template's filters found
	 */
	SanitizationResult sanitizeUserPrompt(DataItem prompt);

	/**
	 * Screens a user prompt with options such as multi-language detection.
	 * @param prompt the prompt
	 * @param options the options of this call
	 * @return what the template's filters found
	 * @throws ModelArmorInputTooLargeException when the prompt is larger than {@link DataItem#MAX_BYTES}
	 */
	SanitizationResult sanitizeUserPrompt(DataItem prompt, SanitizeOptions options);

	/**
	 * Screens a model response before it reaches the user.
	 * @param response the response text
	 * @return what the template's filters found
	 */
	SanitizationResult sanitizeModelResponse(String response);

	/**
	 * Screens a model response together with the prompt that produced it.
	 * @param response the response text
	 * @param userPrompt the prompt that produced it
	 * @return what the template's filters found
	 */
	SanitizationResult sanitizeModelResponse(String response, String userPrompt);

	/**
	 * Screens a model response given as text or as a document.
	 * @param response the response
	 * @param userPrompt the prompt that produced it, or {@code null}
	 * @return what the template's filters found
	 */
	SanitizationResult sanitizeModelResponse(DataItem response, @Nullable String userPrompt);

	/**
	 * Screens a model response with options such as multi-language detection.
	 * @param response the response
	 * @param userPrompt the prompt that produced it, or {@code null}
	 * @param options the options of this call
	 * @return what the template's filters found
	 * @throws ModelArmorInputTooLargeException when the response is larger than {@link DataItem#MAX_BYTES}
	 */
	SanitizationResult sanitizeModelResponse(DataItem response, @Nullable String userPrompt, SanitizeOptions options);

	/**
	 * Screens a user prompt without blocking the caller. Cancelling the future cancels the call: its HTTP
	 * exchange in flight, or its wait before a retry.
	 * @param prompt the prompt
	 * @param options the options of this call
	 * @param executor runs the blocking {@link #sanitizeUserPrompt(DataItem, SanitizeOptions)} when this
	 * client has no non-blocking path ({@link #isNonBlocking()} is {@code false}); unused otherwise
	 * @return what the template's filters found, or the failure the blocking call would throw (a
	 * {@link ModelArmorInputTooLargeException} too, never thrown by this method itself when non-blocking)
	 */
	default CompletableFuture<SanitizationResult> sanitizeUserPromptAsync(DataItem prompt, SanitizeOptions options,
			Executor executor) {
		return CompletableFuture.supplyAsync(() -> sanitizeUserPrompt(prompt, options), executor);
	}

	/**
	 * Screens a model response without blocking the caller, as {@link #sanitizeUserPromptAsync} does.
	 * @param response the response
	 * @param userPrompt the prompt that produced it, or {@code null}
	 * @param options the options of this call
	 * @param executor runs the blocking {@link #sanitizeModelResponse(DataItem, String, SanitizeOptions)} when
	 * this client has no non-blocking path; unused otherwise
	 * @return what the template's filters found, or the failure the blocking call would throw
	 */
	default CompletableFuture<SanitizationResult> sanitizeModelResponseAsync(DataItem response,
			@Nullable String userPrompt, SanitizeOptions options, Executor executor) {
		return CompletableFuture.supplyAsync(() -> sanitizeModelResponse(response, userPrompt, options), executor);
	}

	/**
	 * Whether the asynchronous operations hold no thread while a call is in flight; when {@code false} they
	 * run the blocking call on the executor they are given.
	 * @return {@code false} unless the implementation has a non-blocking path
	 */
	default boolean isNonBlocking() {
		return false;
	}

	/**
	 * The same client, bound to another template of the same project and location.
	 * @param templateId the template id
	 * @return a client that uses that template
	 */
	ModelArmorOperations withTemplate(String templateId);

	/**
	 * The same client, bound to a template of the same project in the location the reference names: its
	 * calls go to that location, and never to another. A client that cannot call another location than its
	 * own refuses a reference to one rather than call its own.
	 * @param template the template and its location
	 * @return a client that uses that template where it lives
	 * @throws UnsupportedOperationException when this client cannot call the reference's location
	 */
	default ModelArmorOperations withTemplate(TemplateReference template) {
		String name = templateName();
		if (name != null && name.contains("/locations/" + template.location() + "/templates/")) {
			return withTemplate(template.templateId());
		}
		throw new UnsupportedOperationException(getClass().getName() + " cannot call a template in location "
				+ template.location() + "; ModelArmorTemplate can");
	}

	/**
	 * The full resource name of the template that sanitize calls use, which a verdict depends on: the
	 * verdict cache keys verdicts by it.
	 * @return {@code projects/{project}/locations/{location}/templates/{template}}, or {@code null} when it
	 * is unknown, and then no verdict of this client is cached
	 */
	default @Nullable String templateName() {
		return null;
	}

	/**
	 * Manages the templates of the client's project and location.
	 * @return the template operations
	 */
	TemplateOperations templates();

	/**
	 * Reads and changes floor settings.
	 * @return the floor-setting operations
	 */
	FloorSettingOperations floorSettings();

}
