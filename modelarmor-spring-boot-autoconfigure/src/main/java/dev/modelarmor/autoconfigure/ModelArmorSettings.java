package dev.modelarmor.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.function.Supplier;

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
import dev.modelarmor.screening.cache.VerdictCache;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.boot.http.client.HttpRedirects;
import org.springframework.boot.ssl.NoSuchSslBundleException;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.util.unit.DataSize;

/**
 * What the starter's beans are built with: the properties of every area ({@link BoundProperties}) turned
 * into the settings types of the client, the retry strategy and screening, and validated once,
 * so that an invalid value fails startup with a {@link ModelArmorConfigurationException} naming the property
 * and what to change. The ranges themselves are the settings types' own; this class only says which
 * property a refused value came from: for a value read through a deprecated name
 * ({@code modelarmor.guard.fail-open}, {@code modelarmor.guard.window.*}), that name.
 *
 * @param endpoint the endpoint: {@code modelarmor.endpoint}, or the regional endpoint of the location
 * @param http the HTTP client settings: {@code modelarmor.http.*} over Spring Boot's
 * {@code spring.http.clients.*}, over the defaults of {@link HttpTimeouts#DEFAULTS}; redirects never followed
 * @param retry the retry strategy
 * @param windows how text longer than one window is screened
 * @param failOpen whether a call goes on when screening cannot complete
 */
record ModelArmorSettings(ModelArmorEndpoint endpoint, HttpClientSettings http, RetrySettings retry,
		ScreeningWindows windows, boolean failOpen) {

	/** Model Armor's regions and multi-regions, as documented when this release was made. */
	static final List<String> LOCATIONS = List.of("us", "eu", "us-central1", "us-east1", "us-east4", "us-west1",
			"northamerica-northeast2", "europe-southwest1", "europe-west1", "europe-west2", "europe-west3",
			"europe-west4", "europe-west9", "asia-northeast1", "asia-northeast3", "asia-south1", "asia-southeast1",
			"australia-southeast2");

	private static final String SCREENING = "modelarmor.screening.";

	private static final String DEPRECATED_GUARD = "modelarmor.guard.";

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
		return of(new BoundProperties(client, new ModelArmorScreeningProperties(), new ModelArmorGuardProperties(),
				new ModelArmorCacheProperties(), new ModelArmorHealthProperties(),
				(name) -> false), application, sslBundles);
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
		ModelArmorProperties properties = bound.client();
		Problems problems = new Problems();
		problems.check(() -> {
			Duration cacheTimeToLive = bound.health().getCacheTimeToLive();
			if (cacheTimeToLive.isNegative()) {
				throw invalid("modelarmor.health.cache-time-to-live", cacheTimeToLive, "must not be negative");
			}
		});
		problems.check(() -> requireNotBlank("modelarmor.template-id", properties.getTemplateId(),
				"remove it or name a template"));
		problems.check(() -> verdictCache(bound.cache()));
		problems.check(() -> quota(properties.getQuota()));
		problems.check(() -> circuitBreaker(properties.getCircuitBreaker()));
		problems.check(() -> MultiLanguageOptions.of(bound.screening().getMultiLanguageDetection()));
		ModelArmorEndpoint endpoint = problems.attempt(() -> endpoint(properties));
		HttpClientSettings http = problems.attempt(() -> http(properties.getHttp(), application, sslBundles));
		RetrySettings retry = problems.attempt(() -> retry(properties.getRetry()));
		ScreeningWindows windows = problems.attempt(() -> windows(bound));
		if (endpoint == null || http == null || retry == null || windows == null || !problems.found.isEmpty()) {
			return new Checked(null, problems.found);
		}
		return new Checked(new ModelArmorSettings(endpoint, http, retry, windows, failOpen(bound).value()),
				List.of());
	}

	/**
	 * One WARN line for each deprecated name that is set, naming it and its replacement (never the value),
	 * and saying when the replacement is set too and wins.
	 * @param bound the bound properties
	 * @return the lines, empty when no deprecated name is set
	 */
	static List<String> deprecationWarnings(BoundProperties bound) {
		ModelArmorGuardProperties.Window old = bound.guard().getWindow();
		List<String> warnings = new ArrayList<>();
		warnIfSet(warnings, bound, "fail-open", bound.guard().getFailOpen());
		warnIfSet(warnings, bound, "window.size", old.getSize());
		warnIfSet(warnings, bound, "window.overlap", old.getOverlap());
		warnIfSet(warnings, bound, "window.parallelism", old.getParallelism());
		warnIfSet(warnings, bound, "window.max-windows", old.getMaxWindows());
		return warnings;
	}

	private static void warnIfSet(List<String> warnings, BoundProperties bound, String name, @Nullable Object old) {
		if (old == null) {
			return;
		}
		String deprecated = DEPRECATED_GUARD + name;
		String replacement = SCREENING + name;
		warnings.add(bound.configured().test(replacement)
				? "Model Armor property is deprecated and ignored, its replacement is set too and wins (remove it): "
						+ "property=" + deprecated + " replacement=" + replacement
				: "Model Armor property is deprecated, rename it (it still works in this release): property="
						+ deprecated + " replacement=" + replacement);
	}

	private static Resolved<Boolean> failOpen(BoundProperties bound) {
		return resolve(bound, "fail-open", bound.screening().isFailOpen(), bound.guard().getFailOpen());
	}

	/**
	 * A screening setting: the value of modelarmor.screening.NAME, or of the deprecated modelarmor.guard.NAME
	 * when only that one is set, with the name it was read from.
	 */
	private static <T> Resolved<T> resolve(BoundProperties bound, String name, T current, @Nullable T deprecated) {
		String property = SCREENING + name;
		if (deprecated != null && !bound.configured().test(property)) {
			return new Resolved<>(deprecated, DEPRECATED_GUARD + name);
		}
		return new Resolved<>(current, property);
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
		String location = properties.getLocation();
		if (!LOCATIONS.contains(location) && !properties.getAllowedExtraLocations().contains(location)) {
			throw invalid("modelarmor.location", location, "is not a Model Armor location; use one of "
					+ String.join(", ", LOCATIONS) + ", or add it to modelarmor.allowed-extra-locations");
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
			RetryBudgetSettings budgetSettings = new RetryBudgetSettings(budget.getRetryRatio(),
					budget.getMinRetriesPerSecond(), budget.getWindow());
			return budget.isEnabled() ? settings.withBudget(budgetSettings) : settings;
		}
		catch (InvalidSettingException ex) {
			throw invalid("modelarmor.retry.", ex, ex.value());
		}
	}

	private static ScreeningWindows windows(BoundProperties bound) {
		ModelArmorScreeningProperties.Window window = bound.screening().getWindow();
		ModelArmorGuardProperties.Window old = bound.guard().getWindow();
		Resolved<DataSize> size = resolve(bound, "window.size", window.getSize(), old.getSize());
		Resolved<DataSize> overlap = resolve(bound, "window.overlap", window.getOverlap(), old.getOverlap());
		Resolved<Integer> parallelism = resolve(bound, "window.parallelism", window.getParallelism(),
				old.getParallelism());
		Resolved<Integer> maxWindows = resolve(bound, "window.max-windows", window.getMaxWindows(), old.getMaxWindows());
		try {
			return new ScreeningWindows(bytes(size.value()), bytes(overlap.value()), parallelism.value(),
					maxWindows.value());
		}
		catch (InvalidSettingException ex) {
			// Named as the user wrote it, and the sizes as they were configured (2KB), not as bytes.
			Resolved<?> refused = switch (ex.setting()) {
				case "size" -> size;
				case "overlap" -> overlap;
				case "parallelism" -> parallelism;
				default -> maxWindows;
			};
			Object value = (refused.value() instanceof DataSize) ? refused.value() : ex.value();
			throw invalid(refused.property(), value, ex.reason());
		}
	}

	/** Checked whether the cache is enabled or not, like every other property. */
	private static void verdictCache(ModelArmorCacheProperties cache) {
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
			Integer fallback = quota.getFallbackQueriesPerMinute();
			return new QuotaSettings(quota.getQueriesPerMinute(), quota.getMaxWait(), quota.getRedisTimeout(),
					(fallback != null) ? fallback : quota.getQueriesPerMinute());
		}
		catch (InvalidSettingException ex) {
			throw invalid("modelarmor.quota.", ex, ex.value());
		}
	}

	/** Checked whether the breaker is enabled or not. */
	static CircuitBreakerSettings circuitBreaker(ModelArmorProperties.CircuitBreaker breaker) {
		try {
			return new CircuitBreakerSettings(breaker.getFailureRateThreshold(), breaker.getWindowSize(),
					breaker.getWaitInOpenState(), breaker.getHalfOpenProbes(), breaker.getFailingFor());
		}
		catch (InvalidSettingException ex) {
			throw invalid("modelarmor.circuit-breaker.", ex, ex.value());
		}
	}

	/** The bytes of a size, clamped to the range of an int so that an out-of-range size is refused as such. */
	static int bytes(DataSize size) {
		return (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, size.toBytes()));
	}

	/** A template that falls back to modelarmor.template-id when unset or empty, but never when blank. */
	static void requireNotBlankTemplate(String property, @Nullable String template) {
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

	static ModelArmorConfigurationException invalid(String property, @Nullable Object value,
			@Nullable String reason) {
		return new InvalidPropertyValue(property, value, reason);
	}

	/**
	 * The bound properties of every area, and which names the application configured: a default and an
	 * unset property look the same once bound, and a deprecated name loses only to a configured replacement.
	 * @param client {@code modelarmor.*}: the client
	 * @param screening {@code modelarmor.screening.*}
	 * @param guard {@code modelarmor.guard.*}, with the deprecated names of screening properties
	 * @param cache {@code modelarmor.cache.*}
	 * @param health {@code modelarmor.health.*}
	 * @param configured whether the application configured a property, by its canonical name
	 */
	record BoundProperties(ModelArmorProperties client, ModelArmorScreeningProperties screening,
			ModelArmorGuardProperties guard, ModelArmorCacheProperties cache,
			ModelArmorHealthProperties health, Predicate<String> configured) {

		/**
		 * Every area bound from one binder, as the application context binds them.
		 * @param binder the binder over the application's configuration
		 * @return the bound properties
		 */
		static BoundProperties bind(Binder binder) {
			return new BoundProperties(binder.bindOrCreate("modelarmor", ModelArmorProperties.class),
					binder.bindOrCreate("modelarmor.screening", ModelArmorScreeningProperties.class),
					binder.bindOrCreate("modelarmor.guard", ModelArmorGuardProperties.class),
					binder.bindOrCreate("modelarmor.cache", ModelArmorCacheProperties.class),
					binder.bindOrCreate("modelarmor.health", ModelArmorHealthProperties.class), configured(binder));
		}

		/**
		 * Whether the binder's configuration has a property, in any of Spring Boot's relaxed forms.
		 * @param binder the binder over the application's configuration
		 * @return the test by canonical name
		 */
		static Predicate<String> configured(Binder binder) {
			return (name) -> binder.bind(name, Bindable.of(String.class)).isBound();
		}

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

	/** A setting's value and the property it was read from. */
	private record Resolved<T>(T value, String property) {
	}

}
