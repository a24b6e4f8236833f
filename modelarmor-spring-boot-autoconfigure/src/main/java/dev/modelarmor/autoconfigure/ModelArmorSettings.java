package dev.modelarmor.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

import dev.modelarmor.client.HttpTimeouts;
import dev.modelarmor.client.ModelArmorConfigurationException;
import dev.modelarmor.client.ModelArmorEndpoint;
import dev.modelarmor.client.SanitizeOptions;
import dev.modelarmor.resilience.CircuitBreakerSettings;
import dev.modelarmor.resilience.QuotaSettings;
import dev.modelarmor.retry.RetrySettings;
import dev.modelarmor.screening.WindowSettings;
import dev.modelarmor.screening.media.UnscreenableMedia;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.boot.ssl.SslBundles;

/**
 * What the starter's beans are built with: the properties of every area ({@link BoundProperties}), each
 * turned into the settings types of the client, the retry strategy, resilience, screening and health by that
 * area's mapper, once, and validated once, so that an invalid value fails startup with a
 * {@link ModelArmorConfigurationException} naming the property and what to change. The ranges themselves are
 * the settings types' own. Every auto-configuration reads these values, never the properties again.
 *
 * @param endpoint the endpoint: {@code modelarmor.endpoint}, or the regional endpoint of the location
 * @param location the location of the client's templates: {@code modelarmor.location}
 * @param allowedExtraLocations the locations accepted besides Model Armor's known ones, for the client's and the
 * tenants' templates: {@code modelarmor.allowed-extra-locations}
 * @param templateId the client's own template, which a call that names none uses: {@code modelarmor.template-id},
 * or {@code null}
 * @param http the HTTP client settings: {@code modelarmor.http.*} over Spring Boot's
 * {@code spring.http.clients.*}, over the defaults of {@link HttpTimeouts#DEFAULTS}; redirects never followed
 * @param retryEnabled whether failed attempts are retried: {@code modelarmor.retry.enabled}
 * @param retry the retry strategy: {@code modelarmor.retry.*}
 * @param quota the quota: {@code modelarmor.quota.*}, used when {@code modelarmor.quota.enabled}
 * @param circuitBreaker the circuit breaker: {@code modelarmor.circuit-breaker.*}, used unless it is disabled
 * @param windows how text longer than one window is screened: {@code modelarmor.screening.window.*}
 * @param failOpen whether a call goes on when screening cannot complete: {@code modelarmor.screening.fail-open}
 * @param unscreenableMedia what becomes of media that cannot be screened:
 * {@code modelarmor.screening.unscreenable-media}
 * @param sanitizeOptions the multi-language options every screening sends:
 * {@code modelarmor.screening.multi-language-detection.*}
 * @param logLinesPerSecond the log lines of each outcome written in full each second:
 * {@code modelarmor.screening.log-lines-per-second}
 * @param healthCacheTimeToLive how long a health check's result is reused:
 * {@code modelarmor.health.cache-time-to-live}
 */
record ModelArmorSettings(ModelArmorEndpoint endpoint, String location, List<String> allowedExtraLocations,
		@Nullable String templateId,
		HttpClientSettings http, boolean retryEnabled, RetrySettings retry, QuotaSettings quota,
		CircuitBreakerSettings circuitBreaker, WindowSettings windows, boolean failOpen,
		UnscreenableMedia unscreenableMedia, SanitizeOptions sanitizeOptions, int logLinesPerSecond, Duration healthCacheTimeToLive) {

	/**
	 * The client properties with every other area's defaults, validated and turned into settings, without
	 * Spring Boot's HTTP client settings.
	 * @param client the bound client properties
	 * @return the settings
	 * @throws ModelArmorConfigurationException naming the first property that is invalid
	 */
	static ModelArmorSettings of(ModelArmorProperties client) {
		return of(client, HttpClientSettings.defaults(), null);
	}

	/**
	 * The client properties with every other area's defaults, validated and turned into settings.
	 * @param client the bound client properties
	 * @param application Spring Boot's HTTP client settings ({@code spring.http.clients.*}), which
	 * {@code modelarmor.http.*} override
	 * @param sslBundles the SSL bundles that {@code modelarmor.http.ssl.bundle} names, or {@code null} when
	 * there are none
	 * @return the settings
	 * @throws ModelArmorConfigurationException naming the first property that is invalid
	 */
	static ModelArmorSettings of(ModelArmorProperties client, HttpClientSettings application,
			@Nullable SslBundles sslBundles) {
		return of(new BoundProperties(client, new ModelArmorScreeningProperties(), new ModelArmorCacheProperties(),
				new ModelArmorHealthProperties()), application, sslBundles);
	}

	/**
	 * Validates the properties of every area and turns them into settings.
	 * @param bound the bound properties
	 * @param application Spring Boot's HTTP client settings ({@code spring.http.clients.*}), which
	 * {@code modelarmor.http.*} override
	 * @param sslBundles the SSL bundles that {@code modelarmor.http.ssl.bundle} names, or {@code null} when
	 * there are none
	 * @return the settings
	 * @throws ModelArmorConfigurationException naming the first property that is invalid
	 */
	static ModelArmorSettings of(BoundProperties bound, HttpClientSettings application,
			@Nullable SslBundles sslBundles) {
		Checked checked = check(bound, application, sslBundles);
		ModelArmorConfigurationProblems.throwIfAny(checked.problems());
		return Objects.requireNonNull(checked.settings(), "no problems");
	}

	/**
	 * Validates the properties of every area, all of them before any failure, so that one report lists every
	 * invalid value (within one area, such as the retry strategy, the first one the area's type refuses).
	 * @param bound the bound properties
	 * @param application Spring Boot's HTTP client settings ({@code spring.http.clients.*}), which
	 * {@code modelarmor.http.*} override
	 * @param sslBundles the SSL bundles that {@code modelarmor.http.ssl.bundle} names, or {@code null} when
	 * there are none
	 * @return the settings, or every problem found
	 */
	static Checked check(BoundProperties bound, HttpClientSettings application, @Nullable SslBundles sslBundles) {
		ModelArmorProperties client = bound.client();
		ModelArmorScreeningProperties screening = bound.screening();
		Problems problems = new Problems();
		Duration healthCacheTimeToLive = problems.attempt(() -> HealthSettingsMapper.cacheTimeToLive(bound.health()));
		problems.check(() -> ClientSettingsMapper.checkTemplateId(client));
		problems.check(() -> CacheSettingsMapper.check(bound.cache()));
		QuotaSettings quota = problems.attempt(() -> ResilienceSettingsMapper.quota(client.getQuota()));
		CircuitBreakerSettings circuitBreaker = problems
			.attempt(() -> ResilienceSettingsMapper.circuitBreaker(client.getCircuitBreaker()));
		SanitizeOptions sanitizeOptions = problems
			.attempt(() -> ScreeningSettingsMapper.sanitizeOptions(screening.getMultiLanguageDetection()));
		Integer logLinesPerSecond = problems.attempt(() -> ScreeningSettingsMapper.logLinesPerSecond(screening));
		ModelArmorEndpoint endpoint = problems.attempt(() -> ClientSettingsMapper.endpoint(client));
		HttpClientSettings http = problems
			.attempt(() -> HttpSettingsMapper.http(client.getHttp(), application, sslBundles));
		RetrySettings retry = problems.attempt(() -> RetrySettingsMapper.retry(client.getRetry()));
		WindowSettings windows = problems.attempt(() -> ScreeningSettingsMapper.windows(screening.getWindow()));
		if (healthCacheTimeToLive == null || quota == null || circuitBreaker == null || sanitizeOptions == null
				|| logLinesPerSecond == null || endpoint == null || http == null || retry == null || windows == null
				|| !problems.found.isEmpty()) {
			return new Checked(null, problems.found);
		}
		return new Checked(new ModelArmorSettings(endpoint, client.getLocation(),
				List.copyOf(client.getAllowedExtraLocations()), client.getTemplateId(), http,
				client.getRetry().isEnabled(), retry, quota, circuitBreaker, windows, screening.isFailOpen(),
				screening.getUnscreenableMedia(), sanitizeOptions, logLinesPerSecond, healthCacheTimeToLive), List.of());
	}

	/**
	 * The timeouts of each attempt, resolved.
	 * @return the connect timeout and the read timeout
	 */
	HttpTimeouts timeouts() {
		return new HttpTimeouts(Objects.requireNonNull(this.http.connectTimeout(), "resolved"),
				Objects.requireNonNull(this.http.readTimeout(), "resolved"));
	}

	/**
	 * The bound properties of every area that the settings are made of.
	 * @param client {@code modelarmor.*}: the client
	 * @param screening {@code modelarmor.screening.*}
	 * @param cache {@code modelarmor.cache.*}
	 * @param health {@code modelarmor.health.*}
	 */
	record BoundProperties(ModelArmorProperties client, ModelArmorScreeningProperties screening,
			ModelArmorCacheProperties cache, ModelArmorHealthProperties health) {
	}

	/**
	 * The outcome of validating the properties.
	 * @param settings the settings, or {@code null} when a property is invalid
	 * @param problems every invalid property, in the order of the report; empty when there are settings
	 */
	record Checked(@Nullable ModelArmorSettings settings, List<ModelArmorConfigurationException> problems) {

		Checked {
			problems = List.copyOf(problems);
		}

	}

	/** The problems found so far: each check runs whatever the earlier ones found. */
	private static final class Problems {

		private final List<ModelArmorConfigurationException> found = new ArrayList<>();

		void check(Runnable check) {
			attempt(() -> {
				check.run();
				return Boolean.TRUE;
			});
		}

		<T> @Nullable T attempt(Supplier<T> part) {
			try {
				return part.get();
			}
			catch (ModelArmorConfigurationException ex) {
				this.found.add(ex);
				return null;
			}
		}

	}

}
