package dev.modelarmor.client.admin;

import org.jspecify.annotations.Nullable;

/**
 * The filters of a template or a floor setting.
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

}
