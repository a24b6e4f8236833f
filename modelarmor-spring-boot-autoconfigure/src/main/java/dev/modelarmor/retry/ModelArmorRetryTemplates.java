package dev.modelarmor.retry;

import org.springframework.retry.RetryCallback;
import org.springframework.retry.RetryContext;
import org.springframework.retry.RetryListener;
import org.springframework.retry.policy.NeverRetryPolicy;
import org.springframework.retry.support.RetryTemplate;

/**
 * Builds the spring-retry {@link RetryTemplate} that carries out Google's retry strategy for Model
 * Armor calls.
 */
public final class ModelArmorRetryTemplates {

	private ModelArmorRetryTemplates() {
	}

	/**
	 * A template that retries as the settings say, with its own retry budget when the settings have one.
	 * @param settings the schedule, deadline and classification
	 * @param runtime the clock, sleeper and random source
	 * @return a new template
	 */
	public static RetryTemplate retrying(RetrySettings settings, RetryRuntime runtime) {
		RetryTemplate template = new RetryTemplate();
		RetryBudget budget = (settings.budget() != null) ? new RetryBudget(settings.budget()) : null;
		template.setRetryPolicy(
				new ModelArmorRetryPolicy(new FailureClassifier(settings.retryTooManyRequests()), budget));
		template.setBackOffPolicy(new JitteredTruncatedBackOffPolicy(settings, runtime));
		template.setThrowLastExceptionOnExhausted(true);
		if (budget != null) {
			template.registerListener(new RetryListener() {
				@Override
				public <T, E extends Throwable> void onSuccess(RetryContext context, RetryCallback<T, E> callback,
						T result) {
					budget.onSuccess();
				}
			});
		}
		return template;
	}

	/**
	 * A template that makes one attempt only, still bounding it by the deadline.
	 * @param settings the settings whose deadline bounds the attempt
	 * @param runtime the clock
	 * @return a new template
	 */
	public static RetryTemplate singleAttempt(RetrySettings settings, RetryRuntime runtime) {
		RetryTemplate template = new RetryTemplate();
		template.setRetryPolicy(new NeverRetryPolicy());
		template.setBackOffPolicy(new JitteredTruncatedBackOffPolicy(settings, runtime));
		template.setThrowLastExceptionOnExhausted(true);
		return template;
	}

}
