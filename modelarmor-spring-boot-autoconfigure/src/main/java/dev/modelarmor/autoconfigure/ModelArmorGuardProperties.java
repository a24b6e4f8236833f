package dev.modelarmor.autoconfigure;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties of {@code @ModelArmorGuarded} methods ({@code modelarmor.guard.*}). Whether a call
 * that cannot be screened goes on, and how long text is cut into windows, are screening properties
 * ({@code modelarmor.screening.*}), since they govern every integration.
 */
@ConfigurationProperties("modelarmor.guard")
public class ModelArmorGuardProperties {

	/**
	 * Whether @ModelArmorGuarded methods are screened.
	 */
	private boolean enabled = true;

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

}
