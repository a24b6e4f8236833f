package dev.modelarmor.screening;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

import dev.modelarmor.client.DataItem;
import dev.modelarmor.client.ModelArmorOperations;
import dev.modelarmor.client.SanitizationResult;
import dev.modelarmor.client.SanitizeOptions;
import dev.modelarmor.client.admin.FloorSettingOperations;
import dev.modelarmor.client.admin.TemplateOperations;
import org.jspecify.annotations.Nullable;

/**
 * A client whose every sanitize call carries the same options (multi-language detection, the source
 * language), so that every screening sends them: text, its windows, media, prompts and responses alike.
 */
final class OptionsApplyingOperations implements ModelArmorOperations {

	private final ModelArmorOperations delegate;

	private final SanitizeOptions options;

	OptionsApplyingOperations(ModelArmorOperations delegate, SanitizeOptions options) {
		this.delegate = delegate;
		this.options = options;
	}

	@Override
	public SanitizationResult sanitizeUserPrompt(String prompt) {
		return this.delegate.sanitizeUserPrompt(DataItem.text(prompt), this.options);
	}

	@Override
	public SanitizationResult sanitizeUserPrompt(DataItem prompt) {
		return this.delegate.sanitizeUserPrompt(prompt, this.options);
	}

	@Override
	public SanitizationResult sanitizeUserPrompt(DataItem prompt, SanitizeOptions options) {
		return this.delegate.sanitizeUserPrompt(prompt, effective(options));
	}

	@Override
	public SanitizationResult sanitizeModelResponse(String response) {
		return this.delegate.sanitizeModelResponse(DataItem.text(response), null, this.options);
	}

	@Override
	public SanitizationResult sanitizeModelResponse(String response, String userPrompt) {
		return this.delegate.sanitizeModelResponse(DataItem.text(response), userPrompt, this.options);
	}

	@Override
	public SanitizationResult sanitizeModelResponse(DataItem response, @Nullable String userPrompt) {
		return this.delegate.sanitizeModelResponse(response, userPrompt, this.options);
	}

	@Override
	public SanitizationResult sanitizeModelResponse(DataItem response, @Nullable String userPrompt,
			SanitizeOptions options) {
		return this.delegate.sanitizeModelResponse(response, userPrompt, effective(options));
	}

	@Override
	public CompletableFuture<SanitizationResult> sanitizeUserPromptAsync(DataItem prompt, SanitizeOptions options,
			Executor executor) {
		return this.delegate.sanitizeUserPromptAsync(prompt, effective(options), executor);
	}

	@Override
	public CompletableFuture<SanitizationResult> sanitizeModelResponseAsync(DataItem response,
			@Nullable String userPrompt, SanitizeOptions options, Executor executor) {
		return this.delegate.sanitizeModelResponseAsync(response, userPrompt, effective(options), executor);
	}

	@Override
	public boolean isNonBlocking() {
		return this.delegate.isNonBlocking();
	}

	/** The screening's own options where a call gives none (the windows of a text give none). */
	private SanitizeOptions effective(SanitizeOptions options) {
		return (options == SanitizeOptions.NONE) ? this.options : options;
	}

	@Override
	public ModelArmorOperations withTemplate(String templateId) {
		return new OptionsApplyingOperations(this.delegate.withTemplate(templateId), this.options);
	}

	@Override
	public ModelArmorOperations withTemplate(dev.modelarmor.client.TemplateReference template) {
		return new OptionsApplyingOperations(this.delegate.withTemplate(template), this.options);
	}

	@Override
	public @Nullable String templateName() {
		return this.delegate.templateName();
	}

	@Override
	public TemplateOperations templates() {
		return this.delegate.templates();
	}

	@Override
	public FloorSettingOperations floorSettings() {
		return this.delegate.floorSettings();
	}

}
