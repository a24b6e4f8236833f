package dev.modelarmor.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.modelarmor.client.HttpTimeouts;
import dev.modelarmor.client.ModelArmorTemplate;
import dev.modelarmor.resilience.CircuitBreakerSettings;
import dev.modelarmor.resilience.QuotaSettings;
import dev.modelarmor.retry.JitterMode;
import dev.modelarmor.retry.RetryBudgetSettings;
import dev.modelarmor.retry.RetrySettings;
import org.jspecify.annotations.Nullable;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.core.io.Resource;

// The configuration processor cannot read defaults that refer to other classes, so
// additional-spring-configuration-metadata.json states them for IDEs; ModelArmorSettingsTests checks that
// every default there is the one here. The same holds for the starter's other properties classes.

/**
 * Configuration properties of the Model Armor client ({@code modelarmor.*}): where the templates are, how
 * calls are authorized, and the HTTP and retry settings of each call. Their defaults are those of the types
 * they become ({@link HttpTimeouts#DEFAULTS}, {@link RetrySettings#DEFAULTS}); an invalid value fails startup
 * with a message naming the property. Screening, the guard, Spring AI, the verdict cache and the health
 * indicator have properties classes of their own.
 */
@ConfigurationProperties("modelarmor")
public class ModelArmorProperties {

	/**
	 * Whether to enable the Model Armor starter.
	 */
	private boolean enabled = true;

	/**
	 * Google Cloud project that owns the templates. When unset: spring.cloud.gcp.project-id, then the
	 * GOOGLE_CLOUD_PROJECT environment variable, then the project of the credentials.
	 */
	private @Nullable String projectId;

	/**
	 * Location of the templates: a region such as us-central1, or the multi-region us or eu.
	 */
	private String location = ModelArmorTemplate.DEFAULT_LOCATION;

	/**
	 * Locations accepted besides Model Armor's regions and multi-regions known to this release, for a region
	 * added since.
	 */
	private List<String> allowedExtraLocations = new ArrayList<>();

	/**
	 * Template used by sanitize calls unless another is chosen with withTemplate.
	 */
	private @Nullable String templateId;

	/**
	 * Base URL of the Model Armor API. When unset: the regional endpoint of the location,
	 * https://modelarmor.{location}.rep.googleapis.com. Plain http is accepted only for loopback hosts.
	 */
	private @Nullable String endpoint;

	/**
	 * What a modelarmor.* key that no property of the starter has does at startup: fail (the start fails,
	 * naming the key, where it is set and the nearest property), warn (one WARN line each) or ignore.
	 */
	private UnknownPropertiesAction unknownProperties = UnknownPropertiesAction.FAIL;

	private final Credentials credentials = new Credentials();

	private final Http http = new Http();

	private final Retry retry = new Retry();

	private final Quota quota = new Quota();

	private final CircuitBreaker circuitBreaker = new CircuitBreaker();

	private final TemplateCheck templateCheck = new TemplateCheck();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public @Nullable String getProjectId() {
		return this.projectId;
	}

	public void setProjectId(@Nullable String projectId) {
		this.projectId = projectId;
	}

	public String getLocation() {
		return this.location;
	}

	public void setLocation(String location) {
		this.location = location;
	}

	public List<String> getAllowedExtraLocations() {
		return this.allowedExtraLocations;
	}

	public void setAllowedExtraLocations(List<String> allowedExtraLocations) {
		this.allowedExtraLocations = allowedExtraLocations;
	}

	public @Nullable String getTemplateId() {
		return this.templateId;
	}

	public void setTemplateId(@Nullable String templateId) {
		this.templateId = templateId;
	}

	public @Nullable String getEndpoint() {
		return this.endpoint;
	}

	public void setEndpoint(@Nullable String endpoint) {
		this.endpoint = endpoint;
	}

	public UnknownPropertiesAction getUnknownProperties() {
		return this.unknownProperties;
	}

	public void setUnknownProperties(UnknownPropertiesAction unknownProperties) {
		this.unknownProperties = unknownProperties;
	}

	public Credentials getCredentials() {
		return this.credentials;
	}

	public Http getHttp() {
		return this.http;
	}

	public Retry getRetry() {
		return this.retry;
	}

	public Quota getQuota() {
		return this.quota;
	}

	public CircuitBreaker getCircuitBreaker() {
		return this.circuitBreaker;
	}

	public TemplateCheck getTemplateCheck() {
		return this.templateCheck;
	}

	/**
	 * The check of the templates the application names, once it has started.
	 */
	public static class TemplateCheck {

		/**
		 * Whether every template the application names (modelarmor.template-id, the Spring AI templates, the
		 * template of each @ModelArmorGuarded annotation) is read once when the application has started. One
		 * that does not exist, or that the credentials may not read, fails the start; Model Armor unreachable
		 * is a WARN line. Never waits longer than the retry deadline.
		 */
		private boolean enabled = true;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

	}

	/**
	 * How calls are authorized. A ModelArmorCredentialsProvider bean replaces the location and the
	 * defaults below it.
	 */
	public static class Credentials {

		/**
		 * Whether to send an Authorization header. Disable it only for a local stand-in or tests; it wins over
		 * a ModelArmorCredentialsProvider bean.
		 */
		private boolean enabled = true;

		/**
		 * Location of a credentials JSON file (service account or other), as a Spring resource such as
		 * file:/secrets/sa.json. When unset: spring-cloud-gcp's credentials when it is on the class path,
		 * then Application Default Credentials.
		 */
		private @Nullable Resource location;

		/**
		 * Project billed for quota, sent as the x-goog-user-project header. Needed with user credentials
		 * from gcloud auth application-default login.
		 */
		private @Nullable String quotaProjectId;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public @Nullable Resource getLocation() {
			return this.location;
		}

		public void setLocation(@Nullable Resource location) {
			this.location = location;
		}

		public @Nullable String getQuotaProjectId() {
			return this.quotaProjectId;
		}

		public void setQuotaProjectId(@Nullable String quotaProjectId) {
			this.quotaProjectId = quotaProjectId;
		}

	}

	/**
	 * HTTP settings of each attempt. Each one that is not set here is taken from Spring Boot's
	 * spring.http.clients.* settings, and otherwise defaults.
	 */
	public static class Http {

		/**
		 * Time allowed to open a connection. Defaults to spring.http.clients.connect-timeout, or 5s.
		 */
		private @Nullable Duration connectTimeout;

		/**
		 * Time allowed for an answer, per attempt. Never longer than what is left of the retry deadline.
		 * Defaults to spring.http.clients.read-timeout, or 30s.
		 */
		private @Nullable Duration readTimeout;

		private final Ssl ssl = new Ssl();

		public @Nullable Duration getConnectTimeout() {
			return this.connectTimeout;
		}

		public void setConnectTimeout(@Nullable Duration connectTimeout) {
			this.connectTimeout = connectTimeout;
		}

		public @Nullable Duration getReadTimeout() {
			return this.readTimeout;
		}

		public void setReadTimeout(@Nullable Duration readTimeout) {
			this.readTimeout = readTimeout;
		}

		public Ssl getSsl() {
			return this.ssl;
		}

		/**
		 * TLS of the calls to Model Armor.
		 */
		public static class Ssl {

			/**
			 * Name of the SSL bundle (spring.ssl.bundle.*) that the calls to Model Armor use, for example one
			 * that trusts a corporate CA or a TLS-inspecting proxy, or that holds a client certificate.
			 * Defaults to spring.http.clients.ssl.bundle, or the JDK's trust store.
			 */
			private @Nullable String bundle;

			public @Nullable String getBundle() {
				return this.bundle;
			}

			public void setBundle(@Nullable String bundle) {
				this.bundle = bundle;
			}

		}

	}

	/**
	 * Google's retry strategy: truncated exponential backoff with jitter. The wait before retry n
	 * (from 0) is min(initial-backoff × 2^n + U[0, jitter], max-backoff).
	 */
	public static class Retry {

		/**
		 * Whether to retry failed calls. When disabled, each call makes one attempt.
		 */
		private boolean enabled = true;

		/**
		 * Wait before the first retry, before jitter; each later wait doubles.
		 */
		private Duration initialBackoff = RetrySettings.DEFAULTS.schedule().initialBackoff();

		/**
		 * Upper bound of the random fraction added to each wait, drawn afresh per retry. Zero for none.
		 */
		private Duration jitter = RetrySettings.DEFAULTS.schedule().jitter();

		/**
		 * Longest wait between two attempts.
		 */
		private Duration maxBackoff = RetrySettings.DEFAULTS.schedule().maxBackoff();

		/**
		 * Total time from the start of the first attempt after which no retry starts. A wait that would
		 * end past it is not slept: the call fails at once.
		 */
		private Duration deadline = RetrySettings.DEFAULTS.deadline();

		/**
		 * Whether to retry HTTP 429 (Too Many Requests) as well as 500, 502, 503, 504 and I/O failures.
		 */
		private boolean retryTooManyRequests = RetrySettings.DEFAULTS.retryTooManyRequests();

		/**
		 * Whether a Retry-After header or a google.rpc.RetryInfo detail raises the next wait to at least
		 * the server's hint. A hint that does not fit before the deadline ends retrying at once.
		 */
		private boolean honorRetryAfter = RetrySettings.DEFAULTS.honorRetryAfter();

		/**
		 * How the random part of each wait is drawn: google (Google's strategy: initial-backoff × 2^n plus up to
		 * jitter, capped), full (uniform between 0 and the capped exponential wait) or decorrelated (uniform
		 * between initial-backoff and three times the previous wait, capped). Full and decorrelated spread a
		 * crowd of clients better after an outage.
		 */
		private JitterMode jitterMode = RetrySettings.DEFAULTS.jitterMode();

		private final Budget budget = new Budget();

		public JitterMode getJitterMode() {
			return this.jitterMode;
		}

		public void setJitterMode(JitterMode jitterMode) {
			this.jitterMode = jitterMode;
		}

		public Budget getBudget() {
			return this.budget;
		}

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public Duration getInitialBackoff() {
			return this.initialBackoff;
		}

		public void setInitialBackoff(Duration initialBackoff) {
			this.initialBackoff = initialBackoff;
		}

		public Duration getJitter() {
			return this.jitter;
		}

		public void setJitter(Duration jitter) {
			this.jitter = jitter;
		}

		public Duration getMaxBackoff() {
			return this.maxBackoff;
		}

		public void setMaxBackoff(Duration maxBackoff) {
			this.maxBackoff = maxBackoff;
		}

		public Duration getDeadline() {
			return this.deadline;
		}

		public void setDeadline(Duration deadline) {
			this.deadline = deadline;
		}

		public boolean isRetryTooManyRequests() {
			return this.retryTooManyRequests;
		}

		public void setRetryTooManyRequests(boolean retryTooManyRequests) {
			this.retryTooManyRequests = retryTooManyRequests;
		}

		public boolean isHonorRetryAfter() {
			return this.honorRetryAfter;
		}

		public void setHonorRetryAfter(boolean honorRetryAfter) {
			this.honorRetryAfter = honorRetryAfter;
		}

		/**
		 * A retry budget per client, in the manner of Finagle's: over the last window, retries may be
		 * retry-ratio of the calls plus min-retries-per-second a second. It engages only on a sustained storm of
		 * failures; one call's retries and a blip's fit in it.
		 */
		public static class Budget {

			/**
			 * Whether calls draw on a retry budget, one per location. When enabled, a retry the budget has no
			 * room for is not made (outcome budget_exhausted), so that a storm of failures (429s above the
			 * quota) is not multiplied by retries. It holds retries back only once more than
			 * failure-rate-threshold percent of a location's attempts have failed for failing-for.
			 */
			private boolean enabled = true;

			/**
			 * Retries allowed per call over the window once the budget holds retries back, from 0 to 10: 0.2
			 * lets retries add at most 20 % to a sustained storm's load.
			 */
			private double retryRatio = RetryBudgetSettings.DEFAULTS.retryRatio();

			/**
			 * Retries allowed a second whatever the traffic once the budget holds retries back, from 0 to 10000,
			 * so that a quiet application's calls keep Google's retries. Retries of HTTP 429 get at most 1 a
			 * second of it.
			 */
			private int minRetriesPerSecond = RetryBudgetSettings.DEFAULTS.minRetriesPerSecond();

			/**
			 * Time over which calls, retries and failed attempts are counted, whole seconds from 1s to 10m.
			 */
			private Duration window = RetryBudgetSettings.DEFAULTS.window();

			/**
			 * Percentage of a location's attempts over the window that must have failed (5xx, 429, no answer)
			 * before its retries are held to retry-ratio and min-retries-per-second, from 0 (always) to 100.
			 * At 50, a server failing 30 % of attempts at random keeps every retry at any rate.
			 */
			private float failureRateThreshold = RetryBudgetSettings.DEFAULTS.failureRateThreshold();

			/**
			 * How long a location's failure rate must stay above failure-rate-threshold before its retries
			 * are held back, from 0 to 1h: a blip shorter than this keeps every retry.
			 */
			private Duration failingFor = RetryBudgetSettings.DEFAULTS.failingFor();

			public float getFailureRateThreshold() {
				return this.failureRateThreshold;
			}

			public void setFailureRateThreshold(float failureRateThreshold) {
				this.failureRateThreshold = failureRateThreshold;
			}

			public Duration getFailingFor() {
				return this.failingFor;
			}

			public void setFailingFor(Duration failingFor) {
				this.failingFor = failingFor;
			}

			public boolean isEnabled() {
				return this.enabled;
			}

			public void setEnabled(boolean enabled) {
				this.enabled = enabled;
			}

			public double getRetryRatio() {
				return this.retryRatio;
			}

			public void setRetryRatio(double retryRatio) {
				this.retryRatio = retryRatio;
			}

			public int getMinRetriesPerSecond() {
				return this.minRetriesPerSecond;
			}

			public void setMinRetriesPerSecond(int minRetriesPerSecond) {
				this.minRetriesPerSecond = minRetriesPerSecond;
			}

			public Duration getWindow() {
				return this.window;
			}

			public void setWindow(Duration window) {
				this.window = window;
			}

		}

	}

	/**
	 * The project's Model Armor quota, kept by the starter so that the calls of every instance stay within
	 * it: shared through Redis when the application has a Lettuce RedisConnectionFactory, in this process
	 * otherwise. Every HTTP attempt, retries included, takes a permit.
	 */
	public static class Quota {

		/**
		 * Whether calls take a permit of the quota before each attempt. A call that cannot get one within its
		 * deadline (and max-wait, when set) is not screened (outcome quota_exhausted).
		 */
		private boolean enabled;

		/**
		 * The project's quota, from 2 to 1000000 queries per minute; never more are sent in any minute.
		 */
		private int queriesPerMinute = QuotaSettings.DEFAULTS.queriesPerMinute();

		/**
		 * The longest a call waits for a permit, never more than what is left of its deadline. Unset, a call
		 * waits as long as its deadline allows, as Google's strategy would have retried a 429 until then; set
		 * it to refuse earlier. Zero does not wait.
		 */
		private @Nullable Duration maxWait = QuotaSettings.DEFAULTS.maxWait();

		/**
		 * The longest one Redis operation of the shared quota may take, from 1ms to 10s; past it (or when
		 * Redis fails) the quota is kept in this process for a few seconds.
		 */
		private Duration redisTimeout = QuotaSettings.DEFAULTS.redisTimeout();

		/**
		 * The quota each instance keeps by itself while Redis fails or is slow, from 2 to queries-per-minute;
		 * unset, the whole queries-per-minute. Set it to queries-per-minute divided by the number of instances
		 * to keep the fleet within the quota through a Redis failure.
		 */
		private @Nullable Integer fallbackQueriesPerMinute;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public int getQueriesPerMinute() {
			return this.queriesPerMinute;
		}

		public void setQueriesPerMinute(int queriesPerMinute) {
			this.queriesPerMinute = queriesPerMinute;
		}

		public @Nullable Duration getMaxWait() {
			return this.maxWait;
		}

		public void setMaxWait(@Nullable Duration maxWait) {
			this.maxWait = maxWait;
		}

		public Duration getRedisTimeout() {
			return this.redisTimeout;
		}

		public void setRedisTimeout(Duration redisTimeout) {
			this.redisTimeout = redisTimeout;
		}

		public @Nullable Integer getFallbackQueriesPerMinute() {
			return this.fallbackQueriesPerMinute;
		}

		public void setFallbackQueriesPerMinute(@Nullable Integer fallbackQueriesPerMinute) {
			this.fallbackQueriesPerMinute = fallbackQueriesPerMinute;
		}

	}

	/**
	 * The circuit breaker of each instance: while most recent calls fail (5xx, no answer, for failing-for), calls
	 * fail at once as not screened (outcome circuit_open) instead of waiting out their deadline.
	 */
	public static class CircuitBreaker {

		/**
		 * Whether calls go through a circuit breaker.
		 */
		private boolean enabled = true;

		/**
		 * Percentage of failed calls, above 0 and at most 100, that opens the breaker.
		 */
		private float failureRateThreshold = CircuitBreakerSettings.DEFAULTS.failureRateThreshold();

		/**
		 * Number of recent calls, from 2 to 10000, over which the failure rate is computed; also the fewest
		 * before the breaker can open. Each call counts once, however many attempts it made.
		 */
		private int windowSize = CircuitBreakerSettings.DEFAULTS.windowSize();

		/**
		 * How long the breaker stays open before probes are let through, from 1ms to 1h.
		 */
		private Duration waitInOpenState = CircuitBreakerSettings.DEFAULTS.waitInOpenState();

		/**
		 * Calls let through while half-open, from 1 to 100; their failure rate closes or reopens it.
		 */
		private int halfOpenProbes = CircuitBreakerSettings.DEFAULTS.halfOpenProbes();

		/**
		 * How long a call's attempts must have been failing (5xx, no answer) before it counts as a failed call,
		 * from 0 to 1h; a call that ends failed sooner counts then. With Google's waits, 3s is the third attempt:
		 * a shorter blip never counts.
		 */
		private Duration failingFor = CircuitBreakerSettings.DEFAULTS.failingFor();

		public Duration getFailingFor() {
			return this.failingFor;
		}

		public void setFailingFor(Duration failingFor) {
			this.failingFor = failingFor;
		}

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public float getFailureRateThreshold() {
			return this.failureRateThreshold;
		}

		public void setFailureRateThreshold(float failureRateThreshold) {
			this.failureRateThreshold = failureRateThreshold;
		}

		public int getWindowSize() {
			return this.windowSize;
		}

		public void setWindowSize(int windowSize) {
			this.windowSize = windowSize;
		}

		public Duration getWaitInOpenState() {
			return this.waitInOpenState;
		}

		public void setWaitInOpenState(Duration waitInOpenState) {
			this.waitInOpenState = waitInOpenState;
		}

		public int getHalfOpenProbes() {
			return this.halfOpenProbes;
		}

		public void setHalfOpenProbes(int halfOpenProbes) {
			this.halfOpenProbes = halfOpenProbes;
		}

	}

}
