package dev.modelarmor.client;

import dev.modelarmor.client.admin.FloorSettingOperations;
import dev.modelarmor.client.admin.TemplateOperations;
import org.jspecify.annotations.Nullable;

/**
 * Screens LLM prompts and model responses with Google Cloud Model Armor. Every call uses a Model
 * Armor template; {@link #withTemplate(String)} gives the same client bound to another one.
 *
 * <p>Failed calls are retried as Google's retry strategy prescribes; a call that still fails throws a
 * {@link ModelArmorException} (a {@link ModelArmorApiException} for an HTTP error answer).
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
	 * The same client, bound to another template of the same project and location.
	 * @param templateId the template id
	 * @return a client that uses that template
	 */
	ModelArmorOperations withTemplate(String templateId);

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
