package dev.modelarmor.autoconfigure;

import java.time.Duration;
import java.util.Objects;

import dev.modelarmor.ai.ModelArmorAdvisorOptions;
import dev.modelarmor.client.HttpTimeouts;
import dev.modelarmor.client.ModelArmorConfigurationException;
import dev.modelarmor.client.ModelArmorEndpoint;
import dev.modelarmor.resilience.CircuitBreakerSettings;
import dev.modelarmor.resilience.QuotaSettings;
import dev.modelarmor.retry.BackoffSchedule;
import dev.modelarmor.retry.InvalidSettingException;
import dev.modelarmor.retry.RetryBudgetSettings;
import dev.modelarmor.retry.RetrySettings;
import dev.modelarmor.screening.MatchAction;
import dev.modelarmor.screening.ScreeningWindows;
import dev.modelarmor.screening.VerdictCache;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.boot.http.client.HttpRedirects;
import org.springframework.boot.ssl.NoSuchSslBundleException;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.util.unit.DataSize;

/**
 * What the starter's beans are built with: {@link ModelArmorProperties} turned into the settings types of
 * the client, the retry strategy and the advisor, and validated once, so that an invalid value fails
 * startup with a {@link ModelArmorConfigurationException} naming the property and what to change. The
 * ranges themselves are the settings types' own; this class only says which property a refused value
 * came from.
 *
 * @param endpoint the endpoint: {@code modelarmor.endpoint}, or the regional endpoint of the location
 * @param http the HTTP client settings: {@code modelarmor.http.*} over Spring Boot's
 * {@code spring.http.clients.*}, over the defaults of {@link HttpTimeouts#DEFAULTS}; redirects never followed
 * @param retry the retry strategy
 * @param windows how text longer than one window is screened
 * @param advisor how the Spring AI advisor acts
 */
record ModelArmorSettings(ModelArmorEndpoint endpoint, HttpClientSettings http, RetrySettings retry,
		ScreeningWindows windows, ModelArmorAdvisorOptions advisor) {

	/**
	 * Validates the properties and turns them into settings, without Spring Boot's HTTP client settings.
	 * @param properties the bound properties
	 * @return the settings
	 * @throws ModelArmorConfigurationException naming the first property that is invalid
	 */
	static ModelArmorSettings of(ModelArmorProperties properties) {
		return of(properties, HttpClientSettings.defaults(), null);
	}

	/**
	 * Validates the properties and turns them into settings.
	 * @param properties the bound properties
	 * @param application Spring Boot's HTTP client settings ({@code spring.http.clients.*}), which
	 * {@code modelarmor.http.*} override
	 * @param sslBundles the SSL bundles that {@code modelarmor.http.ssl.bundle} names, or {@code null} when
	 * there are none
	 * @return the settings
	 * @throws ModelArmorConfigurationException naming the first property that is invalid
	 */
	static ModelArmorSettings of(ModelArmorProperties properties, HttpClientSettings application,
			@Nullable SslBundles sslBundles) {
		Duration cacheTimeToLive = properties.getHealth().getCacheTimeToLive();
		if (cacheTimeToLive.isNegative()) {
			throw invalid("modelarmor.health.cache-time-to-live", cacheTimeToLive, "must not be negative");
		}
		requireNotBlank("modelarmor.template-id", properties.getTemplateId(), "remove it or name a template");
		ModelArmorProperties.SpringAi springAi = properties.getSpringAi();
		requireNotBlankTemplate("modelarmor.spring-ai.advisor.template", springAi.getAdvisor().getTemplate());
		requireNotBlankTemplate("modelarmor.spring-ai.documents.template", springAi.getDocuments().getTemplate());
		requireNotBlankTemplate("modelarmor.spring-ai.tools.template", springAi.getTools().getTemplate());
		verdictCache(properties.getCache());
		quota(properties.getQuota());
		circuitBreaker(properties.getCircuitBreaker());
		return new ModelArmorSettings(endpoint(properties), http(properties.getHttp(), application, sslBundles),
				retry(properties.getRetry()),
				windows(properties.getGuard().getWindow()), advisor(properties.getSpringAi().getAdvisor()));
	}

	private static ModelArmorEndpoint endpoint(ModelArmorProperties properties) {
		ModelArmorEndpoint regional;
		try {
			// Checked even with an explicit endpoint: the location is also part of every request's path.
			regional = ModelArmorEndpoint.regional(properties.getLocation());
		}
		catch (IllegalArgumentException ex) {
			throw invalid("modelarmor.location", properties.getLocation(),
					"is not a location name; use a region such as us-central1, or us or eu");
		}
		String endpoint = properties.getEndpoint();
		if (endpoint == null) {
			return regional;
		}
		try {
			return ModelArmorEndpoint.of(endpoint);
		}
		catch (IllegalArgumentException ex) {
			throw invalid("modelarmor.endpoint", endpoint, ex.getMessage());
		}
	}

	/**
	 * The timeouts of each attempt, resolved.
	 * @return the connect timeout and the read timeout
	 */
	HttpTimeouts timeouts() {
		return new HttpTimeouts(Objects.requireNonNull(this.http.connectTimeout(), "resolved"),
				Objects.requireNonNull(this.http.readTimeout(), "resolved"));
	}

	private static HttpClientSettings http(ModelArmorProperties.Http http, HttpClientSettings application,
			@Nullable SslBundles sslBundles) {
		HttpTimeouts timeouts;
		try {
			timeouts = new HttpTimeouts(first(http.getConnectTimeout(), application.connectTimeout(),
					HttpTimeouts.DEFAULTS.connect()),
					first(http.getReadTimeout(), application.readTimeout(), HttpTimeouts.DEFAULTS.read()));
		}
		catch (InvalidSettingException ex) {
			Object ours = "connect-timeout".equals(ex.setting()) ? http.getConnectTimeout() : http.getReadTimeout();
			throw invalid((ours != null) ? "modelarmor.http." : "spring.http.clients.", ex, ex.value());
		}
		String bundleName = http.getSsl().getBundle();
		SslBundle bundle = (bundleName != null) ? sslBundle(bundleName, sslBundles) : application.sslBundle();
		// Redirects are refused by the transport whatever these say; said here too for whoever reads them.
		return application.withTimeouts(timeouts.connect(), timeouts.read())
			.withSslBundle(bundle)
			.withRedirects(HttpRedirects.DONT_FOLLOW);
	}

	private static Duration first(@Nullable Duration ours, @Nullable Duration application, Duration fallback) {
		return (ours != null) ? ours : (application != null) ? application : fallback;
	}

	private static SslBundle sslBundle(String name, @Nullable SslBundles sslBundles) {
		String property = "modelarmor.http.ssl.bundle";
		String define = "; define it under spring.ssl.bundle.jks." + name + " or spring.ssl.bundle.pem." + name
				+ ", or remove " + property;
		if (name.isBlank()) {
			throw invalid(property, name, "is blank; name an SSL bundle or remove it");
		}
		if (sslBundles == null) {
			throw invalid(property, name, "names an SSL bundle, but the application has no SSL bundles" + define);
		}
		try {
			return sslBundles.getBundle(name);
		}
		catch (NoSuchSslBundleException ex) {
			throw invalid(property, name, "names no SSL bundle" + define);
		}
	}

	private static RetrySettings retry(ModelArmorProperties.Retry retry) {
		try {
			RetrySettings settings = new RetrySettings(
					new BackoffSchedule(retry.getInitialBackoff(), retry.getJitter(), retry.getMaxBackoff()),
					retry.getDeadline(), retry.isRetryTooManyRequests(), retry.isHonorRetryAfter())
				.withJitterMode(retry.getJitterMode());
			ModelArmorProperties.Retry.Budget budget = retry.getBudget();
			RetryBudgetSettings budgetSettings = new RetryBudgetSettings(budget.getMaxTokens(), budget.getTokenRatio());
			return budget.isEnabled() ? settings.withBudget(budgetSettings) : settings;
		}
		catch (InvalidSettingException ex) {
			throw invalid("modelarmor.retry.", ex, ex.value());
		}
	}

	private static ScreeningWindows windows(ModelArmorProperties.Guard.Window window) {
		try {
			return new ScreeningWindows(bytes(window.getSize()), bytes(window.getOverlap()), window.getParallelism(),
					window.getMaxWindows());
		}
		catch (InvalidSettingException ex) {
			// The sizes as they were configured (2KB), not as the bytes they were turned into.
			Object value = switch (ex.setting()) {
				case "size" -> window.getSize();
				case "overlap" -> window.getOverlap();
				default -> ex.value();
			};
			throw invalid("modelarmor.guard.window.", ex, value);
		}
	}

	/** Checked whether the cache is enabled or not, like every other property. */
	private static void verdictCache(ModelArmorProperties.Cache cache) {
		requireNotBlank("modelarmor.cache.name", cache.getName(), "remove it or name a cache");
		try {
			VerdictCache.requireTimeToLive(cache.getTimeToLive());
		}
		catch (InvalidSettingException ex) {
			throw invalid("modelarmor.cache.", ex, ex.value());
		}
	}

	/** Issue 26: checked whether the limiter is enabled or not, like every other property. */
	static QuotaSettings quota(ModelArmorProperties.Quota quota) {
		try {
			return new QuotaSettings(quota.getQueriesPerMinute(), quota.getMaxWait(), quota.getRedisTimeout());
		}
		catch (InvalidSettingException ex) {
			throw invalid("modelarmor.quota.", ex, ex.value());
		}
	}

	/** Issue 26: checked whether the breaker is enabled or not. */
	static CircuitBreakerSettings circuitBreaker(ModelArmorProperties.CircuitBreaker breaker) {
		try {
			return new CircuitBreakerSettings(breaker.getFailureRateThreshold(), breaker.getWindowSize(),
					breaker.getWaitInOpenState(), breaker.getHalfOpenProbes());
		}
		catch (InvalidSettingException ex) {
			throw invalid("modelarmor.circuit-breaker.", ex, ex.value());
		}
	}

	private static ModelArmorAdvisorOptions advisor(ModelArmorProperties.SpringAi.Advisor advisor) {
		if (advisor.isParallelPromptScreening() && advisor.getOnMatch() == MatchAction.DEIDENTIFY) {
			throw invalid("modelarmor.spring-ai.advisor.parallel-prompt-screening", true,
					"cannot be used with modelarmor.spring-ai.advisor.on-match=deidentify: the model would read "
							+ "the prompt before it is de-identified; set one of them otherwise");
		}
		try {
			return new ModelArmorAdvisorOptions(advisor.getOnMatch(), advisor.getOnBlock(), advisor.getRefusal(),
					advisor.getOrder(), advisor.getStreamMode(), bytes(advisor.getStreamWindow()),
					advisor.isParallelPromptScreening());
		}
		catch (IllegalArgumentException ex) {
			throw invalid("modelarmor.spring-ai.advisor.stream-window", advisor.getStreamWindow(), ex.getMessage());
		}
	}

	/** The bytes of a size, clamped to the range of an int so that an out-of-range size is refused as such. */
	private static int bytes(DataSize size) {
		return (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, size.toBytes()));
	}

	/** A template that falls back to modelarmor.template-id when unset or empty, but never when blank. */
	private static void requireNotBlankTemplate(String property, @Nullable String template) {
		if (template != null && !template.isEmpty()) {
			requireNotBlank(property, template, "remove it to use modelarmor.template-id, or name a template");
		}
	}

	private static void requireNotBlank(String property, @Nullable String value, String action) {
		if (value != null && value.isBlank()) {
			throw invalid(property, value, "is blank; " + action);
		}
	}

	private static ModelArmorConfigurationException invalid(String group, InvalidSettingException ex, Object value) {
		return invalid(group + ex.setting(), value, ex.reason());
	}

	private static ModelArmorConfigurationException invalid(String property, @Nullable Object value,
			@Nullable String reason) {
		Object shown = (value instanceof Duration duration) ? duration.toMillis() + "ms" : value;
		return new ModelArmorConfigurationException(property, "the value '" + shown + "' " + reason,
				"Change " + property + " in your application configuration");
	}

}
