package dev.modelarmor.client.admin;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonEnumDefaultValue;
import org.jspecify.annotations.Nullable;

/**
 * The metadata of a template: how it runs its filters and what it logs.
 *
 * <p>The service leaves out {@code false}, {@code 0} and empty values, which then read as
 * {@code null}.
 *
 * @param ignorePartialInvocationFailures whether the failure of some filters is ignored, or
 * {@code null} when not given
 * @param customPromptSafetyErrorCode the error code that a service extension returns for a prompt that
 * trips a filter, or {@code null} when not given
 * @param customPromptSafetyErrorMessage the error message for a prompt that trips a filter, or
 * {@code null} when not given
 * @param customLlmResponseSafetyErrorCode the error code for a model response that trips a filter, or
 * {@code null} when not given
 * @param customLlmResponseSafetyErrorMessage the error message for a model response that trips a
 * filter, or {@code null} when not given
 * @param logTemplateOperations whether template operations are logged, or {@code null} when not given
 * @param logSanitizeOperations whether sanitize operations are logged, or {@code null} when not given
 * @param enforcementType whether matches only inspect or also block, or {@code null} when not given
 * (the service then blocks)
 * @param multiLanguageDetection the multi-language detection setting, or {@code null} when not given
 * @param modalities what the template screens ({@link Modality#MODALITY_TEXT}, {@link Modality#MODALITY_IMAGE}),
 * an unmodifiable copy, or {@code null} when not given (the service then screens text only)
 */
public record TemplateMetadata(@Nullable Boolean ignorePartialInvocationFailures,
		@Nullable Integer customPromptSafetyErrorCode, @Nullable String customPromptSafetyErrorMessage,
		@Nullable Integer customLlmResponseSafetyErrorCode, @Nullable String customLlmResponseSafetyErrorMessage,
		@Nullable Boolean logTemplateOperations, @Nullable Boolean logSanitizeOperations,
		@Nullable EnforcementType enforcementType, @Nullable MultiLanguageDetection multiLanguageDetection,
		@Nullable List<Modality> modalities) {

	/**
	 * Creates the metadata.
	 * @param ignorePartialInvocationFailures whether the failure of some filters is ignored, or {@code null}
	 * @param customPromptSafetyErrorCode the error code for a prompt that trips a filter, or {@code null}
	 * @param customPromptSafetyErrorMessage the error message for a prompt that trips a filter, or {@code null}
	 * @param customLlmResponseSafetyErrorCode the error code for a response that trips a filter, or {@code null}
	 * @param customLlmResponseSafetyErrorMessage the error message for a response that trips a filter, or
	 * {@code null}
	 * @param logTemplateOperations whether template operations are logged, or {@code null}
	 * @param logSanitizeOperations whether sanitize operations are logged, or {@code null}
	 * @param enforcementType whether matches only inspect or also block, or {@code null}
	 * @param multiLanguageDetection the multi-language detection setting, or {@code null}
	 * @param modalities what the template screens, copied, or {@code null}
	 */
	public TemplateMetadata {
		modalities = NullableCopies.list(modalities);
	}

	/**
	 * Creates the metadata without modalities (the service then screens text only).
	 * @param ignorePartialInvocationFailures whether the failure of some filters is ignored, or {@code null}
	 * @param customPromptSafetyErrorCode the error code for a prompt that trips a filter, or {@code null}
	 * @param customPromptSafetyErrorMessage the error message for a prompt that trips a filter, or {@code null}
	 * @param customLlmResponseSafetyErrorCode the error code for a response that trips a filter, or {@code null}
	 * @param customLlmResponseSafetyErrorMessage the error message for a response that trips a filter, or
	 * {@code null}
	 * @param logTemplateOperations whether template operations are logged, or {@code null}
	 * @param logSanitizeOperations whether sanitize operations are logged, or {@code null}
	 * @param enforcementType whether matches only inspect or also block, or {@code null}
	 * @param multiLanguageDetection the multi-language detection setting, or {@code null}
	 */
	public TemplateMetadata(@Nullable Boolean ignorePartialInvocationFailures,
			@Nullable Integer customPromptSafetyErrorCode, @Nullable String customPromptSafetyErrorMessage,
			@Nullable Integer customLlmResponseSafetyErrorCode, @Nullable String customLlmResponseSafetyErrorMessage,
			@Nullable Boolean logTemplateOperations, @Nullable Boolean logSanitizeOperations,
			@Nullable EnforcementType enforcementType, @Nullable MultiLanguageDetection multiLanguageDetection) {
		this(ignorePartialInvocationFailures, customPromptSafetyErrorCode, customPromptSafetyErrorMessage,
				customLlmResponseSafetyErrorCode, customLlmResponseSafetyErrorMessage, logTemplateOperations,
				logSanitizeOperations, enforcementType, multiLanguageDetection, null);
	}

	/**
	 * This metadata with other modalities.
	 * @param modalities what the template screens, or {@code null} to leave them out
	 * @return the metadata
	 */
	public TemplateMetadata withModalities(@Nullable List<Modality> modalities) {
		return new TemplateMetadata(this.ignorePartialInvocationFailures, this.customPromptSafetyErrorCode,
				this.customPromptSafetyErrorMessage, this.customLlmResponseSafetyErrorCode,
				this.customLlmResponseSafetyErrorMessage, this.logTemplateOperations, this.logSanitizeOperations,
				this.enforcementType, this.multiLanguageDetection, modalities);
	}

	/**
	 * What a template screens: text, images, or both (Google's {@code Modality}).
	 *
	 * <p>Values carry the API's names. A value that this client does not know reads as
	 * {@link #UNRECOGNIZED}; in a template that was read, it travels back as Model Armor sent it.
	 */
	public enum Modality {

		/**
		 * Not set.
		 */
		MODALITY_UNSPECIFIED,

		/**
		 * Text.
		 */
		MODALITY_TEXT,

		/**
		 * Images.
		 */
		MODALITY_IMAGE,

		/**
		 * A value that this client does not know, sent by a newer API. It cannot be sent where it was not
		 * read.
		 */
		@JsonEnumDefaultValue
		UNRECOGNIZED

	}

	/**
	 * Whether filters detect in languages other than English. Templates and floor settings share it;
	 * their JSON is the same.
	 *
	 * @param enableMultiLanguageDetection whether multi-language detection is enabled, or
	 * {@code null} when not given
	 */
	public record MultiLanguageDetection(@Nullable Boolean enableMultiLanguageDetection) {

	}

	/**
	 * Whether the filters of a template block what they match.
	 *
	 * <p>Values carry the API's names. A value that this client does not know reads as
	 * {@link #UNRECOGNIZED}.
	 */
	public enum EnforcementType {

		/**
		 * Not set; the service treats it as {@link #INSPECT_AND_BLOCK}.
		 */
		ENFORCEMENT_TYPE_UNSPECIFIED,

		/**
		 * The filters inspect only; no action is taken on the request.
		 */
		INSPECT_ONLY,

		/**
		 * The filters inspect, and requests that trip them are blocked.
		 */
		INSPECT_AND_BLOCK,

		/**
		 * A value that this client does not know, sent by a newer API.
		 */
		@JsonEnumDefaultValue
		UNRECOGNIZED

	}

}
