package dev.modelarmor.client.admin;

import org.jspecify.annotations.Nullable;

/**
 * The settings of the malicious URI filter of a template or a floor setting.
 *
 * @param filterEnforcement whether the filter is enabled, or {@code null} when not given (the service
 * treats that as disabled)
 */
public record MaliciousUriFilterSettings(@Nullable FilterEnforcement filterEnforcement) {

}
