package dev.modelarmor.autoconfigure;

import dev.modelarmor.client.ModelArmorConfigurationException;
import dev.modelarmor.retry.BackoffSchedule;
import dev.modelarmor.retry.InvalidSettingException;
import dev.modelarmor.retry.RetryBudgetSettings;
import dev.modelarmor.retry.RetrySettings;

import static dev.modelarmor.autoconfigure.PropertyValues.invalid;

/**
 * Maps {@code modelarmor.retry.*} onto the retry strategy's {@link RetrySettings}, the retry budget included
 * when it is enabled. The ranges are {@link RetrySettings}' own.
 */
final class RetrySettingsMapper {

	private RetrySettingsMapper() {
	}

	/**
	 * The retry strategy.
	 * @param retry {@code modelarmor.retry.*}
	 * @return the settings
	 * @throws ModelArmorConfigurationException naming the first property the settings refuse
	 */
	static RetrySettings retry(ModelArmorProperties.Retry retry) {
		try {
			RetrySettings settings = new RetrySettings(
					new BackoffSchedule(retry.getInitialBackoff(), retry.getJitter(), retry.getMaxBackoff()),
					retry.getDeadline(), retry.isRetryTooManyRequests(), retry.isHonorRetryAfter())
				.withJitterMode(retry.getJitterMode());
			ModelArmorProperties.Retry.Budget budget = retry.getBudget();
			RetryBudgetSettings budgetSettings = new RetryBudgetSettings(budget.getRetryRatio(),
					budget.getMinRetriesPerSecond(), budget.getWindow(), budget.getFailureRateThreshold(),
					budget.getFailingFor());
			return budget.isEnabled() ? settings.withBudget(budgetSettings) : settings;
		}
		catch (InvalidSettingException ex) {
			throw invalid("modelarmor.retry.", ex);
		}
	}

}
