package dev.modelarmor.retry;

import org.springframework.retry.support.RetryTemplate;

/**
 * Adjusts the {@link RetryTemplate} that the starter builds for {@code ModelArmorTemplate}, for example
 * to register a {@link org.springframework.retry.RetryListener}. Beans of this type are applied in
 * {@link org.springframework.core.annotation.Order @Order}.
 */
@FunctionalInterface
public interface ModelArmorRetryCustomizer {

	/**
	 * Customizes the retry template.
	 * @param template the template to adjust
	 */
	void customize(RetryTemplate template);

}
