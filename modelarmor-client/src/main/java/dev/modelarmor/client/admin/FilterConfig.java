package dev.modelarmor.client.admin;

import org.jspecify.annotations.Nullable;

/**
 * The filters of a template or a floor setting. The {@code with...} methods change one filter and keep
 * the others; on a template that was read, what the client does not model in the unchanged filters, and
 * in the changed one where it did not change, travels back as read (see {@link AsRead}).
 *
 * @param raiSettings the responsible AI settings, or {@code null} when not given
 * @param sdpSettings the Sensitive Data Protection settings, or {@code null} when not given
 * @param piAndJailbreakFilterSettings the prompt injection and jailbreak settings, or {@code null}
 * when not given
 * @param maliciousUriFilterSettings the malicious URI settings, or {@code null} when not given
 */
public record FilterConfig(@Nullable RaiFilterSettings raiSettings, @Nullable SdpFilterSettings sdpSettings,
		@Nullable PiAndJailbreakFilterSettings piAndJailbreakFilterSettings,
		@Nullable MaliciousUriFilterSettings maliciousUriFilterSettings) {

	/**
	 * These filters with other responsible AI settings.
	 * @param raiSettings the settings, or {@code null} to leave them out
	 * @return the filters
	 */
	public FilterConfig withRaiSettings(@Nullable RaiFilterSettings raiSettings) {
		return new FilterConfig(raiSettings, this.sdpSettings, this.piAndJailbreakFilterSettings,
				this.maliciousUriFilterSettings);
	}

	/**
	 * These filters with other Sensitive Data Protection settings.
	 * @param sdpSettings the settings, or {@code null} to leave them out
	 * @return the filters
	 */
	public FilterConfig withSdpSettings(@Nullable SdpFilterSettings sdpSettings) {
		return new FilterConfig(this.raiSettings, sdpSettings, this.piAndJailbreakFilterSettings,
				this.maliciousUriFilterSettings);
	}

	/**
	 * These filters with other prompt injection and jailbreak settings.
	 * @param piAndJailbreakFilterSettings the settings, or {@code null} to leave them out
	 * @return the filters
	 */
	public FilterConfig withPiAndJailbreakFilterSettings(
			@Nullable PiAndJailbreakFilterSettings piAndJailbreakFilterSettings) {
		return new FilterConfig(this.raiSettings, this.sdpSettings, piAndJailbreakFilterSettings,
				this.maliciousUriFilterSettings);
	}

	/**
	 * These filters with other malicious URI settings.
	 * @param maliciousUriFilterSettings the settings, or {@code null} to leave them out
	 * @return the filters
	 */
	public FilterConfig withMaliciousUriFilterSettings(@Nullable MaliciousUriFilterSettings maliciousUriFilterSettings) {
		return new FilterConfig(this.raiSettings, this.sdpSettings, this.piAndJailbreakFilterSettings,
				maliciousUriFilterSettings);
	}

}
