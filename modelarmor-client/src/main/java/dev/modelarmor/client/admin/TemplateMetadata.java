package dev.modelarmor.client.admin;

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
 */
public record TemplateMetadata(@Nullable Boolean ignorePartialInvocationFailures,
		@Nullable Integer customPromptSafetyErrorCode, @Nullable String customPromptSafetyErrorMessage,
		@Nullable Integer customLlmResponseSafetyErrorCode, @Nullable String customLlmResponseSafetyErrorMessage,
		@Nullable Boolean logTemplateOperations, @Nullable Boolean logSanitizeOperations,
		@Nullable EnforcementType enforcementType, @Nullable MultiLanguageDetection multiLanguageDetection) {

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
