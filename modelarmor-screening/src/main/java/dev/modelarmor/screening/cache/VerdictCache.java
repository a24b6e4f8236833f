package dev.modelarmor.screening.cache;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import dev.modelarmor.client.SanitizationResult;
import dev.modelarmor.client.admin.TemplateChangeListener;
import dev.modelarmor.internal.ModelArmorThreads;
import dev.modelarmor.retry.CallLog;
import dev.modelarmor.retry.InvalidSettingException;
import dev.modelarmor.screening.cache.CacheGuard.CacheFailure;
import dev.modelarmor.screening.cache.SignedVerdicts.Outcome;
import dev.modelarmor.screening.cache.SignedVerdicts.Read;
import dev.modelarmor.screening.cache.VerdictCacheObserver.Lookup;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.cache.Cache;
import org.springframework.util.Assert;

/**
 * Verdicts of screened text kept in a Spring {@link Cache}, so that the same text screened again with the
 * same template is not sent to Model Armor again within a time to live. The screening layer consults it
 * through a {@link VerdictLookup} when it has one ({@code ModelArmorScreening.withCache(VerdictCache)}), for
 * the whole text, before it is cut into windows.
 *
 * <ul>
 * <li>Keys: the template's full name, the operation, and an HmacSHA256, under the signing key, of a
 * digest of the text (with the user prompt given with a model response, and the window settings); never
 * the text, and nothing a reader of the cache can match against a guessed text.</li>
 * <li>Values: a {@link CachedVerdict} (the verdict, the matched filters' names and kinds, an expiry) as a
 * signed JSON string ({@link SignedVerdicts}); never the text. Only a usable {@code MATCHED} or
 * {@code NO_MATCH} verdict is stored, never a result without a usable verdict, never a failure or a
 * refusal of the input (they are exceptions, not results), and never a result that carries
 * de-identified text.</li>
 * <li>Time to live: each value carries its expiry, so that it holds whatever the cache itself evicts; an
 * expired value is a miss.</li>
 * <li>What is read back is checked: a value whose signature does not verify ({@link Lookup#FORGED}, one
 * WARN line at a time), that is not a verdict usable for the key ({@link Lookup#INVALID}), or that was
 * signed with a previous key (a miss), is not used and the text is screened.</li>
 * <li>Every operation of the cache is bounded by {@link Settings#operationTimeout()} and runs where the
 * caller can abandon it; a cache that does not answer within it ({@link Lookup#ERROR}) is skipped at once
 * for {@link Settings#skipFor()}, one that fails after {@link Settings#failuresToSkip()} failures in a row
 * ({@link Lookup#SKIPPED}), with one WARN line when the skip starts and one when it ends. A cache never
 * fails a screening and never makes text pass that screening would not.</li>
 * <li>{@link #templateChanged(String)} clears the whole cache: Spring's {@code Cache} cannot evict by
 * prefix, and templates change rarely. A screening in flight during a change stores nothing.</li>
 * </ul>
 * Thread-safe when the cache is. {@link #close()} ends the threads that run the cache's operations.
 */
public final class VerdictCache implements TemplateChangeListener, AutoCloseable {

	/** The name of the cache unless another is configured. */
	public static final String DEFAULT_NAME = "modelarmor-verdicts";

	/** How long a verdict is used unless another time to live is configured. */
	public static final Duration DEFAULT_TIME_TO_LIVE = Duration.ofMinutes(5);

	/**
	 * The longest time to live: a template changed outside this application (the console, another
	 * instance without a shared cache) is not seen before a verdict expires.
	 */
	public static final Duration MAX_TIME_TO_LIVE = Duration.ofDays(1);

	/** How long one cache operation may take unless another timeout is configured. */
	public static final Duration DEFAULT_OPERATION_TIMEOUT = Duration.ofMillis(100);

	/** The longest operation timeout: a cache slower than this saves nothing. */
	public static final Duration MAX_OPERATION_TIMEOUT = Duration.ofSeconds(5);

	/** Failures in a row after which the cache is skipped, unless configured otherwise. */
	public static final int DEFAULT_FAILURES_TO_SKIP = 3;

	/** How long a failing cache is skipped unless configured otherwise. */
	public static final Duration DEFAULT_SKIP_FOR = Duration.ofSeconds(30);

	/** At most one WARN line about forged values in this time; the others are counted. */
	private static final long FORGERY_WARNING_INTERVAL_MILLIS = Duration.ofMinutes(1).toMillis();

	private static final Logger logger = LoggerFactory.getLogger(VerdictCache.class);

	private final Cache cache;

	private final long timeToLive;

	private final VerdictSigningKeys keys;

	private final Clock clock;

	private final VerdictCacheObserver observer;

	private final CacheGuard guard;

	/**
	 * Counts the template changes seen: a screening that was in flight while one happened may have used the
	 * template as it was, and its verdict is not stored.
	 */
	private final AtomicLong generation = new AtomicLong();

	/** When the last WARN line about a forged value was written, or {@code Long.MIN_VALUE}. */
	private final AtomicLong forgeryWarned = new AtomicLong(Long.MIN_VALUE);

	/** Forged values not written about since the last WARN line. */
	private final AtomicLong forgeriesUnreported = new AtomicLong();

	/**
	 * Creates a verdict cache with the default timeout and skip, and a random signing key known to this
	 * process only: for a cache in this process.
	 * @param cache where the verdicts are kept
	 * @param timeToLive how long a verdict is used, more than zero and at most {@link #MAX_TIME_TO_LIVE}
	 * @param clock tells the time, for expiry
	 * @param observer told of every lookup
	 * @throws InvalidSettingException (setting {@code time-to-live}) when the time to live is out of range
	 */
	public VerdictCache(Cache cache, Duration timeToLive, Clock clock, VerdictCacheObserver observer) {
		this(cache, Settings.inProcess(timeToLive), clock, observer);
	}

	/**
	 * Creates a verdict cache.
	 * @param cache where the verdicts are kept
	 * @param settings the time to live, timeouts, skip and signing keys
	 * @param clock tells the time, for expiry and the skip
	 * @param observer told of every lookup
	 */
	public VerdictCache(Cache cache, Settings settings, Clock clock, VerdictCacheObserver observer) {
		this(cache, settings, clock, observer, false);
	}

	/**
	 * Creates a verdict cache whose operations on a cache outside this process may run on virtual threads.
	 * @param cache where the verdicts are kept
	 * @param settings the time to live, timeouts, skip and signing keys
	 * @param clock tells the time, for expiry and the skip
	 * @param observer told of every lookup
	 * @param virtualThreads whether the operations of a cache outside this process run on virtual threads (Java
	 * 21 and later) rather than on daemon platform threads
	 * @throws IllegalStateException when virtual threads are asked for before Java 21
	 */
	public VerdictCache(Cache cache, Settings settings, Clock clock, VerdictCacheObserver observer,
			boolean virtualThreads) {
		Assert.notNull(cache, "cache must not be null");
		Assert.notNull(settings, "settings must not be null");
		Assert.notNull(clock, "clock must not be null");
		Assert.notNull(observer, "observer must not be null");
		this.cache = cache;
		this.timeToLive = settings.timeToLive().toMillis();
		this.keys = settings.signingKeys();
		this.clock = clock;
		this.observer = observer;
		this.guard = new CacheGuard(settings.operationTimeout(), settings.failuresToSkip(), settings.skipFor(), clock,
				this::skipping, inProcess(cache), ModelArmorThreads.of(virtualThreads));
		// Loads the classes of signing and JSON now, not within the first lookup's timeout.
		SignedVerdicts.read(SignedVerdicts.write(new CachedVerdict("warm-up",
				dev.modelarmor.client.SanitizationResult.Verdict.NO_MATCH, java.util.List.of(), 0), this.keys), this.keys);
	}

	/**
	 * Whether a cache is known to live in this process: a {@code ConcurrentMapCache} or a
	 * {@code CaffeineCache}, by their exact class. Only its own process reads and writes it, and it never
	 * waits on a network. Any other (Redis, a decorator, one this starter does not know) is taken as
	 * shared and remote: fail closed.
	 * @param cache the cache
	 * @return whether it is in this process
	 */
	public static boolean inProcess(Cache cache) {
		String type = cache.getClass().getName();
		return type.equals("org.springframework.cache.concurrent.ConcurrentMapCache")
				|| type.equals("org.springframework.cache.caffeine.CaffeineCache");
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
	 * The result stored for a key, if a usable one is. Waits for the cache at most the operation timeout.
	 * @param key the key
	 * @return the result, or {@code null} to screen
	 */
	@Nullable SanitizationResult get(VerdictKey key) {
		if (!this.guard.usable()) {
			this.observer.lookedUp(key.operation(), Lookup.SKIPPED);
			return null;
		}
		String storedKey = key.storedUnder(this.keys);
		Object stored;
		try {
			stored = this.guard.run(() -> {
				Cache.ValueWrapper wrapper = this.cache.get(storedKey);
				return (wrapper != null) ? wrapper.get() : null;
			});
		}
		catch (CacheFailure ex) {
			failed("read", key, ex);
			this.observer.lookedUp(key.operation(), Lookup.ERROR);
			return null;
		}
		if (stored == null) {
			this.observer.lookedUp(key.operation(), Lookup.MISS);
			return null;
		}
		Read read = SignedVerdicts.read(stored, this.keys);
		CachedVerdict verdict = read.verdict();
		Lookup lookup = switch (read.outcome()) {
			case SIGNED -> (verdict != null) ? lookup(verdict, storedKey, this.clock.millis()) : Lookup.INVALID;
			case PREVIOUS_KEY -> Lookup.MISS;
			case FORGED -> Lookup.FORGED;
			case MALFORMED -> Lookup.INVALID;
		};
		if (lookup == Lookup.FORGED) {
			forged(key);
		}
		this.observer.lookedUp(key.operation(), lookup);
		if (lookup != Lookup.HIT || verdict == null) {
			return null;
		}
		CallLog.debug(logger).operation(key.operation()).outcome("cache_hit").field("cache", name())
			.log(() -> "Model Armor verdict from the cache: operation=" + key.operation() + " verdict="
					+ verdict.verdict() + " cache=" + name());
		return verdict.toResult();
	}

	private Lookup lookup(CachedVerdict verdict, String storedKey, long now) {
		if (verdict.expiresAt() <= now && storedKey.equals(verdict.key())) {
			return Lookup.MISS;
		}
		try {
			return verdict.usableFor(storedKey, now, now + this.timeToLive) ? Lookup.HIT : Lookup.INVALID;
		}
		catch (RuntimeException ex) {
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
	 * screened. Not while the cache is skipped or its last operation failed: the write would only wait
	 * again. A cache that fails is logged and otherwise ignored; the caller waits at most the timeout.
	 * @param key the key
	 * @param result what Model Armor answered for the key's text
	 * @param generation the {@link #generation()} before the screening started
	 */
	void put(VerdictKey key, SanitizationResult result, long generation) {
		if (this.guard.failing() || this.generation.get() != generation) {
			return;
		}
		String storedKey = key.storedUnder(this.keys);
		CachedVerdict verdict = CachedVerdict.of(storedKey, result, this.clock.millis() + this.timeToLive);
		if (verdict == null || !this.guard.usable()) {
			return;
		}
		String value = SignedVerdicts.write(verdict, this.keys);
		try {
			this.guard.run(() -> {
				this.cache.put(storedKey, value);
				return null;
			});
		}
		catch (CacheFailure ex) {
			failed("write", key, ex);
		}
	}

	/**
	 * Drops every verdict: the template's filters may have changed, and the cache cannot evict one
	 * template's keys alone. A cache that fails or does not answer within the timeout is logged: its
	 * verdicts stand until they expire.
	 * @param templateName the template that may have changed
	 */
	@Override
	public void templateChanged(String templateName) {
		this.generation.incrementAndGet();
		try {
			this.guard.run(() -> {
				this.cache.clear();
				return null;
			});
			logger.info("Model Armor verdict cache cleared after a template change: template=\"" + templateName
					+ "\" cache=" + name());
		}
		catch (CacheFailure ex) {
			logger.warn("Model Armor verdict cache could not be cleared after a template change; its verdicts "
					+ "are used until they expire: template=\"" + templateName + "\" cache=" + name() + " error="
					+ error(ex));
		}
	}

	/**
	 * Ends the threads that run the cache's operations.
	 */
	@Override
	public void close() {
		this.guard.close();
	}

	private void skipping(boolean skipped) {
		if (skipped) {
			logger.warn("Model Armor verdict cache is failing, screening without it for the next "
					+ this.guard.skipFor().toSeconds() + "s: cache=" + name());
		}
		else {
			logger.warn("Model Armor verdict cache answers again, using it: cache=" + name());
		}
		this.observer.skipping(skipped);
	}

	private void forged(VerdictKey key) {
		long now = this.clock.millis();
		long last = this.forgeryWarned.get();
		long unreported = this.forgeriesUnreported.incrementAndGet();
		if ((last == Long.MIN_VALUE || now - last >= FORGERY_WARNING_INTERVAL_MILLIS)
				&& this.forgeryWarned.compareAndSet(last, now)) {
			this.forgeriesUnreported.addAndGet(-unreported);
			CallLog.warn(logger).operation(key.operation()).outcome("forged").field("cache", name())
				.field("values", unreported)
				.log("Model Armor verdict cache holds a value whose signature does not verify, a possible "
						+ "forgery; ignored, the text is screened: operation=" + key.operation() + " cache=" + name()
						+ " values=" + unreported);
		}
	}

	private void failed(String what, VerdictKey key, CacheFailure ex) {
		// One line per failure at DEBUG; the WARN line is the skip's, once per change of state.
		CallLog.debug(logger).operation(key.operation()).outcome("cache_failed").field("cache", name())
			.field("action", what)
			.log(() -> "Model Armor verdict cache failed, screening without it: action=" + what + " operation="
					+ key.operation() + " cache=" + name() + " error=" + error(ex));
	}

	/** The failure's class only: a cache's message may quote what it was given. */
	private String error(CacheFailure ex) {
		Throwable cause = ex.getCause();
		if (cause instanceof java.util.concurrent.TimeoutException) {
			return "timeout after " + this.guard.timeout().toMillis() + "ms";
		}
		return (cause != null) ? cause.getClass().getName() : ex.getClass().getName();
	}

	/**
	 * How a verdict cache behaves.
	 *
	 * @param timeToLive how long a verdict is used, more than zero and at most {@link #MAX_TIME_TO_LIVE}
	 * @param operationTimeout how long one operation of the cache may take, more than zero and at most
	 * {@link #MAX_OPERATION_TIMEOUT}
	 * @param failuresToSkip failures in a row after which the cache is skipped, at least 1; a timeout skips
	 * it at once
	 * @param skipFor how long a failing cache is skipped, more than zero
	 * @param signingKeys the keys stored keys are computed with and values signed with
	 */
	public record Settings(Duration timeToLive, Duration operationTimeout, int failuresToSkip, Duration skipFor,
			VerdictSigningKeys signingKeys) {

		/**
		 * Checks the settings.
		 * @param timeToLive how long a verdict is used
		 * @param operationTimeout how long one operation may take
		 * @param failuresToSkip failures in a row before a skip
		 * @param skipFor how long a skip lasts
		 * @param signingKeys the signing keys
		 * @throws InvalidSettingException naming the setting that is out of range
		 */
		public Settings {
			requireTimeToLive(timeToLive);
			Assert.notNull(operationTimeout, "operationTimeout must not be null");
			Assert.notNull(skipFor, "skipFor must not be null");
			Assert.notNull(signingKeys, "signingKeys must not be null");
			if (operationTimeout.toMillis() <= 0 || operationTimeout.compareTo(MAX_OPERATION_TIMEOUT) > 0) {
				throw new InvalidSettingException("operation-timeout", operationTimeout,
						"must be at least 1ms and at most " + MAX_OPERATION_TIMEOUT.toSeconds() + "s");
			}
			if (failuresToSkip < 1) {
				throw new InvalidSettingException("failures-to-skip", failuresToSkip, "must be at least 1");
			}
			if (skipFor.toMillis() <= 0) {
				throw new InvalidSettingException("skip-for", skipFor, "must be at least 1ms");
			}
		}

		/**
		 * The defaults with a time to live and a random signing key, for a cache in this process.
		 * @param timeToLive how long a verdict is used
		 * @return the settings
		 */
		public static Settings inProcess(Duration timeToLive) {
			return new Settings(timeToLive, DEFAULT_OPERATION_TIMEOUT, DEFAULT_FAILURES_TO_SKIP, DEFAULT_SKIP_FOR,
					VerdictSigningKeys.random());
		}

		/**
		 * The same settings with another operation timeout.
		 * @param operationTimeout the timeout
		 * @return the settings
		 */
		public Settings withOperationTimeout(Duration operationTimeout) {
			return new Settings(this.timeToLive, operationTimeout, this.failuresToSkip, this.skipFor, this.signingKeys);
		}

	}

}
