package dev.modelarmor.actuate;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.modelarmor.client.ModelArmorApiException;
import dev.modelarmor.client.ModelArmorException;
import dev.modelarmor.client.ModelArmorOperations;
import dev.modelarmor.client.admin.Template;
import dev.modelarmor.retry.internal.FailureClassifier;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.util.Assert;

/**
 * Health of Model Armor as the application uses it: reads the default template
 * ({@code modelarmor.template-id}) with {@code templates().get(templateId)}.
 *
 * <ul>
 * <li>{@code UP} when the template is read, with details {@code template} (its id) and
 * {@code location} (from the template's resource name, when it has one that names a region).</li>
 * <li>{@code DOWN} when Model Armor answers with an HTTP error, with details {@code template},
 * {@code statusCode} (e.g. 403), {@code status} (the Google status such as {@code PERMISSION_DENIED},
 * when the answer had one that looks like a status name) and {@code outcome} (e.g.
 * {@code non_retryable}).</li>
 * <li>{@code DOWN} for any other failure (unreachable, timed out, garbled answer), with details
 * {@code template}, {@code failure} (a type such as {@code I/O ConnectException}, never a message) and
 * {@code outcome} when the call recorded one.</li>
 * <li>{@code UNKNOWN} when no default template is configured: no call is made and the detail
 * {@code reason} says to set {@code modelarmor.template-id}. Not {@code DOWN}, because an application
 * that only uses {@code withTemplate(...)} is not broken, and the indicator cannot tell which template
 * to read.</li>
 * </ul>
 *
 * <p>With {@link #withCircuitBreakerState}, every result also says the state of the circuit breaker of the
 * template's location (details {@code location} and {@code circuitBreaker}, e.g. {@code open}), read at each
 * check and never cached: an outage in one location shows on that location's line only.
 *
 * <p>Details never carry exception messages (Google's error messages may echo request data), the
 * project id, credentials or tokens; the indicator logs nothing above DEBUG.
 *
 * <p>A result, UP or DOWN, is reused for the cache time to live ({@code modelarmor.health.cache-time-to-live})
 * so that frequent probes do not spend Model Armor quota; zero asks on every check. Concurrent checks
 * wait for one call rather than each making their own. How long one check may take is up to the
 * {@link ModelArmorOperations} given: the auto-configuration passes one that makes a single attempt
 * bounded by {@link #CHECK_DEADLINE}.
 */
public class ModelArmorHealthIndicator implements HealthIndicator {

	/**
	 * The longest time one check may take when the auto-configuration builds the client it uses: a single
	 * attempt whose read timeout is at most this (and at most {@code modelarmor.retry.deadline}).
	 */
	public static final Duration CHECK_DEADLINE = Duration.ofSeconds(10);

	private static final Log logger = LogFactory.getLog(ModelArmorHealthIndicator.class);

	/** The location is taken from the server's resource name only when it looks like a region. */
	private static final Pattern LOCATION = Pattern
		.compile("^projects/[^/]+/locations/([a-z][a-z0-9-]{0,62})/templates/[^/]+$");

	private final ModelArmorOperations operations;

	private final @Nullable String templateId;

	private final Duration cacheTimeToLive;

	private final Clock clock;

	private final @Nullable Supplier<String> breakerState;

	private final @Nullable String breakerLocation;

	private final Object lock = new Object();

	private @Nullable Health cached;

	private Instant cachedUntil = Instant.MIN;

	/**
	 * Creates an indicator.
	 * @param operations the client that reads the template
	 * @param templateId the default template, or {@code null} when none is configured
	 * @param cacheTimeToLive how long a result is reused; zero for not at all
	 * @param clock tells when a cached result expires
	 */
	public ModelArmorHealthIndicator(ModelArmorOperations operations, @Nullable String templateId,
			Duration cacheTimeToLive, Clock clock) {
		Assert.notNull(operations, "operations must not be null");
		Assert.isTrue(!cacheTimeToLive.isNegative(), "cacheTimeToLive must not be negative");
		Assert.notNull(clock, "clock must not be null");
		this.operations = operations;
		this.templateId = (templateId != null && !templateId.isBlank()) ? templateId : null;
		this.cacheTimeToLive = cacheTimeToLive;
		this.clock = clock;
		this.breakerState = null;
		this.breakerLocation = null;
	}

	private ModelArmorHealthIndicator(ModelArmorHealthIndicator indicator, String location,
			Supplier<String> breakerState) {
		this.operations = indicator.operations;
		this.templateId = indicator.templateId;
		this.cacheTimeToLive = indicator.cacheTimeToLive;
		this.clock = indicator.clock;
		this.breakerState = breakerState;
		this.breakerLocation = location;
	}

	/**
	 * The same indicator, whose results also say the state of the circuit breaker of the template's location.
	 * @param location the location of the template it reads
	 * @param breakerState reads that location's breaker's state, e.g. {@code closed} or {@code open}
	 * @return a new indicator
	 */
	public ModelArmorHealthIndicator withCircuitBreakerState(String location, Supplier<String> breakerState) {
		Assert.hasText(location, "location must not be empty");
		Assert.notNull(breakerState, "breakerState must not be null");
		return new ModelArmorHealthIndicator(this, location, breakerState);
	}

	@Override
	public Health health() {
		Health health = cachedOrChecked();
		Supplier<String> breakerState = this.breakerState;
		String location = this.breakerLocation;
		if (breakerState == null || location == null) {
			return health;
		}
		return Health.status(health.getStatus())
			.withDetails(health.getDetails())
			.withDetail("location", location)
			.withDetail("circuitBreaker", breakerState.get())
			.build();
	}

	private Health cachedOrChecked() {
		synchronized (this.lock) {
			Instant now = this.clock.instant();
			Health health = this.cached;
			if (health != null && now.isBefore(this.cachedUntil)) {
				return health;
			}
			health = check();
			if (!this.cacheTimeToLive.isZero()) {
				this.cached = health;
				this.cachedUntil = now.plus(this.cacheTimeToLive);
			}
			return health;
		}
	}

	private Health check() {
		String template = this.templateId;
		if (template == null) {
			return Health.unknown()
				.withDetail("reason", "no default template; set modelarmor.template-id to check Model Armor")
				.build();
		}
		try {
			Template read = this.operations.templates().get(template);
			Health.Builder up = Health.up().withDetail("template", template);
			String location = location(read);
			if (location != null) {
				up.withDetail("location", location);
			}
			return up.build();
		}
		catch (ModelArmorApiException ex) {
			Health.Builder down = Health.down().withDetail("template", template).withDetail("statusCode", ex.statusCode());
			String status = ex.status();
			if (status != null) {
				down.withDetail("status", status);
			}
			ex.outcome().ifPresent((outcome) -> down.withDetail("outcome", outcome.tag()));
			return logged(down.build());
		}
		catch (ModelArmorException ex) {
			Health.Builder down = Health.down()
				.withDetail("template", template)
				.withDetail("failure", FailureClassifier.describe(ex));
			ex.outcome().ifPresent((outcome) -> down.withDetail("outcome", outcome.tag()));
			return logged(down.build());
		}
		catch (RuntimeException ex) {
			return logged(Health.down()
				.withDetail("template", template)
				.withDetail("failure", FailureClassifier.describe(ex))
				.build());
		}
	}

	private static Health logged(Health down) {
		if (logger.isDebugEnabled()) {
			StringBuilder line = new StringBuilder("Model Armor health check failed:");
			down.getDetails().forEach((key, value) -> line.append(' ').append(key).append("=\"").append(value).append('"'));
			logger.debug(line);
		}
		return down;
	}

	private static @Nullable String location(Template template) {
		String name = template.name();
		if (name == null) {
			return null;
		}
		Matcher matcher = LOCATION.matcher(name);
		return matcher.matches() ? matcher.group(1) : null;
	}

}
