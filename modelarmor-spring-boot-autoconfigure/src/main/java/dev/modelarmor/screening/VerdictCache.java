package dev.modelarmor.screening;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import dev.modelarmor.client.SanitizationResult;
import dev.modelarmor.client.admin.TemplateChangeListener;
import dev.modelarmor.retry.InvalidSettingException;
import dev.modelarmor.screening.VerdictCacheObserver.Lookup;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.cache.Cache;
import org.springframework.util.Assert;

/**
 * Verdicts of screened text kept in a Spring {@link Cache}, so that the same text screened again with the
 * same template is not sent to Model Armor again within a time to live. {@link WindowedScreening} uses it
 * when it has one ({@link WindowedScreening#withCache(VerdictCache)}), for the whole text, before it is
 * cut into windows.
 *
 * <ul>
 * <li>Keys: the template's full name, the operation, and a SHA-256 digest of the text (with the user
 * prompt given with a model response, and the window settings); never the text.</li>
 * <li>Values: {@link CachedVerdict}: the verdict, the matched filters' names and kinds, and an expiry;
 * never the text. Only a usable {@code MATCHED} or {@code NO_MATCH} verdict is stored, never a result
 * without a usable verdict, never a failure or a refusal of the input (they are exceptions, not results),
 * and never a result that carries de-identified text.</li>
 * <li>Time to live: each value carries its expiry, so that it holds whatever the cache itself evicts; an
 * expired value is a miss.</li>
 * <li>What is read back is checked: a value that is not a {@link CachedVerdict} usable for the key
 * ({@link Lookup#INVALID}), or a cache that fails ({@link Lookup#ERROR}, with a WARN line), is a miss and
 * the text is screened. A cache never makes text pass that screening would not.</li>
 * <li>{@link #templateChanged(String)} clears the whole cache: Spring's {@code Cache} cannot evict by
 * prefix, and templates change rarely. A screening in flight during a change stores nothing.</li>
 * </ul>
 * Whoever can write to the cache decides verdicts: a shared cache (Redis) must be trusted like the
 * application's own configuration. Thread-safe when the cache is.
 */
public final class VerdictCache implements TemplateChangeListener {

	/** The name of the cache unless another is configured. */
	public static final String DEFAULT_NAME = "modelarmor-verdicts";

	/** How long a verdict is used unless another time to live is configured. */
	public static final Duration DEFAULT_TIME_TO_LIVE = Duration.ofMinutes(5);

	/**
	 * The longest time to live: a template changed outside this application (the console, another
	 * instance without a shared cache) is not seen before a verdict expires.
	 */
	public static final Duration MAX_TIME_TO_LIVE = Duration.ofDays(1);

	private static final Log logger = LogFactory.getLog(VerdictCache.class);

	private final Cache cache;

	private final long timeToLive;

	private final Clock clock;

	private final VerdictCacheObserver observer;

	/**
	 * Counts the template changes seen: a screening that was in flight while one happened may have used the
	 * template as it was, and its verdict is not stored.
	 */
	private final AtomicLong generation = new AtomicLong();

	/**
	 * Creates a verdict cache.
	 * @param cache where the verdicts are kept
	 * @param timeToLive how long a verdict is used, more than zero and at most {@link #MAX_TIME_TO_LIVE}
	 * @param clock tells the time, for expiry
	 * @param observer told of every lookup
	 * @throws InvalidSettingException (setting {@code time-to-live}) when the time to live is out of range
	 */
	public VerdictCache(Cache cache, Duration timeToLive, Clock clock, VerdictCacheObserver observer) {
		Assert.notNull(cache, "cache must not be null");
		Assert.notNull(clock, "clock must not be null");
		Assert.notNull(observer, "observer must not be null");
		this.cache = cache;
		this.timeToLive = requireTimeToLive(timeToLive).toMillis();
		this.clock = clock;
		this.observer = observer;
	}

	/**
	 * Checks a time to live.
	 * @param timeToLive the time to live
	 * @return the same time to live
	 * @throws InvalidSettingException (setting {@code time-to-live}) unless it is more than zero and at
	 * most {@link #MAX_TIME_TO_LIVE}
	 */
	public static Duration requireTimeToLive(Duration timeToLive) {
		Assert.notNull(timeToLive, "timeToLive must not be null");
		if (timeToLive.toMillis() <= 0 || timeToLive.compareTo(MAX_TIME_TO_LIVE) > 0) {
			throw new InvalidSettingException("time-to-live", timeToLive,
					"must be at least 1ms and at most " + MAX_TIME_TO_LIVE.toHours() + "h");
		}
		return timeToLive;
	}

	/**
	 * The name of the cache, for log lines.
	 * @return the name
	 */
	public String name() {
		return this.cache.getName();
	}

	/**
	 * The result stored for a key, if a usable one is.
	 * @param key the key
	 * @return the result, or {@code null} to screen
	 */
	@Nullable SanitizationResult get(VerdictKey key) {
		Object stored;
		try {
			Cache.ValueWrapper wrapper = this.cache.get(key.value());
			stored = (wrapper != null) ? wrapper.get() : null;
		}
		catch (RuntimeException ex) {
			failed("read", key, ex);
			this.observer.lookedUp(key.operation(), Lookup.ERROR);
			return null;
		}
		if (stored == null) {
			this.observer.lookedUp(key.operation(), Lookup.MISS);
			return null;
		}
		long now = this.clock.millis();
		Lookup lookup = lookup(stored, key, now);
		this.observer.lookedUp(key.operation(), lookup);
		if (lookup != Lookup.HIT) {
			return null;
		}
		CachedVerdict verdict = (CachedVerdict) stored;
		if (logger.isDebugEnabled()) {
			logger.debug("Model Armor verdict from the cache: operation=" + key.operation() + " verdict="
					+ verdict.verdict() + " cache=" + name());
		}
		return verdict.toResult();
	}

	private Lookup lookup(Object stored, VerdictKey key, long now) {
		if (!(stored instanceof CachedVerdict verdict)) {
			return Lookup.INVALID;
		}
		if (verdict.expiresAt() <= now && key.value().equals(verdict.key())) {
			return Lookup.MISS;
		}
		try {
			return verdict.usableFor(key.value(), now, now + this.timeToLive) ? Lookup.HIT : Lookup.INVALID;
		}
		catch (RuntimeException ex) {
			// A value deserialized from a shared cache may hold anything, e.g. a list of another type.
			return Lookup.INVALID;
		}
	}

	/**
	 * The template changes seen so far, read before a screening starts.
	 * @return the generation to give {@link #put(VerdictKey, SanitizationResult, long)}
	 */
	long generation() {
		return this.generation.get();
	}

	/**
	 * Stores a result, if it may be cached ({@link CachedVerdict}) and no template changed while it was
	 * screened; a cache that fails is logged and otherwise ignored.
	 * @param key the key
	 * @param result what Model Armor answered for the key's text
	 * @param generation the {@link #generation()} before the screening started
	 */
	void put(VerdictKey key, SanitizationResult result, long generation) {
		CachedVerdict verdict = CachedVerdict.of(key.value(), result, this.clock.millis() + this.timeToLive);
		if (verdict == null || this.generation.get() != generation) {
			return;
		}
		try {
			this.cache.put(key.value(), verdict);
		}
		catch (RuntimeException ex) {
			failed("write", key, ex);
		}
	}

	/**
	 * Drops every verdict: the template's filters may have changed, and the cache cannot evict one
	 * template's keys alone. A cache that fails is logged: its verdicts stand until they expire.
	 * @param templateName the template that may have changed
	 */
	@Override
	public void templateChanged(String templateName) {
		this.generation.incrementAndGet();
		try {
			this.cache.clear();
			logger.info("Model Armor verdict cache cleared after a template change: template=\"" + templateName
					+ "\" cache=" + name());
		}
		catch (RuntimeException ex) {
			logger.warn("Model Armor verdict cache could not be cleared after a template change; its verdicts "
					+ "are used until they expire: template=\"" + templateName + "\" cache=" + name() + " error="
					+ ex.getClass().getName());
		}
	}

	private void failed(String what, VerdictKey key, RuntimeException ex) {
		// The exception's class only: a cache's message may quote what it was given.
		logger.warn("Model Armor verdict cache failed, screening without it: action=" + what + " operation="
				+ key.operation() + " cache=" + name() + " error=" + ex.getClass().getName());
	}

}
