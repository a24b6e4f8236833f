package dev.modelarmor.client.admin;

import dev.modelarmor.client.DetectionConfidenceLevel;
import org.jspecify.annotations.Nullable;

/**
 * The settings of the prompt injection and jailbreak filter of a template or a floor setting.
 *
 * @param filterEnforcement whether the filter is enabled, or {@code null} when not given (the service
 * treats that as disabled)
 * @param confidenceLevel the lowest confidence at which a detection is a match, or {@code null} when
 * not given
 */
public record PiAndJailbreakFilterSettings(@Nullable FilterEnforcement filterEnforcement,
		@Nullable DetectionConfidenceLevel confidenceLevel) {

}
