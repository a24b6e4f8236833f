package dev.modelarmor.autoconfigure;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties of Spring AI's moderation API over Model Armor ({@code modelarmor.spring-ai.moderation.*}).
 */
@ConfigurationProperties("modelarmor.spring-ai.moderation")
public class ModelArmorSpringAiModerationProperties {

	/**
	 * Whether to provide a Spring AI ModerationModel that screens with Model Armor, unless the application has a
	 * ModerationModel bean of its own.
	 */
	private boolean enabled = true;

	/**
	 * Template the moderation model screens with, unless a call's options name one as their model. When unset or
	 * empty: modelarmor.template-id.
	 */
	private @Nullable String template;

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public @Nullable String getTemplate() {
		return this.template;
	}

	public void setTemplate(@Nullable String template) {
		this.template = template;
	}

}
