package dev.modelarmor.resilience;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.modelarmor.internal.ModelArmorThreads;
import io.github.bucket4j.distributed.AsyncBucketProxy;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.redis.lettuce.Bucket4jLettuce;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The quota shared by every instance of a fleet: one Bucket4j bucket in Redis, reached through the
 * application's Lettuce connection factory on a connection of its own. Each reservation is one Redis
 * operation bounded by {@link QuotaSettings#redisTimeout()}; the connection is opened in the background,
 * so no call waits for it.
 *
 * <p>While Redis cannot be used (not connected yet, an operation failed or timed out) the limiter falls back
 * to an in-process bucket of the same quota, and Redis is not tried again for {@link #SKIP_AFTER_FAILURE}:
 * screening goes on, each instance then keeps the quota by itself, and Model Armor's own 429s bound what
 * the fleet sends. A Redis outage must not become a screening outage; that is why it is not "not screened".
 */
public final class RedisQuotaBucket implements QuotaBucket {

	/** How long Redis is left alone after it failed, before the next attempt to use it. */
	public static final Duration SKIP_AFTER_FAILURE = Duration.ofSeconds(5);

	private static final Log logger = LogFactory.getLog(RedisQuotaBucket.class);

	private final LettuceConnectionFactory connectionFactory;

	private final byte[] key;

	private final QuotaSettings settings;

	private final Clock clock;

	private final LocalQuotaBucket fallback;

	private final ExecutorService connector;

	private final AtomicBoolean connecting = new AtomicBoolean();

	private volatile @Nullable AsyncBucketProxy shared;

	private volatile @Nullable StatefulConnection<byte[], byte[]> connection;

	private volatile Instant skipUntil = Instant.MIN;

	private volatile boolean closed;

	/**
	 * Creates the shared bucket; it connects on first use.
	 * @param connectionFactory the application's Lettuce connection factory
	 * @param key the Redis key of the bucket, the same for every instance that shares the quota
	 * @param settings the quota and the Redis timeout
	 * @param clock the wall clock the instances share
	 */
	public RedisQuotaBucket(LettuceConnectionFactory connectionFactory, String key, QuotaSettings settings,
			Clock clock) {
		this(connectionFactory, key, settings, clock, false);
	}

	/**
	 * Creates the shared bucket; it connects on first use, on a virtual thread when asked.
	 * @param connectionFactory the application's Lettuce connection factory
	 * @param key the Redis key of the bucket, the same for every instance that shares the quota
	 * @param settings the quota and the Redis timeout
	 * @param clock the wall clock the instances share
	 * @param virtualThreads whether it connects on a virtual thread (Java 21 and later) rather than on a daemon
	 * platform thread
	 * @throws IllegalStateException when virtual threads are asked for before Java 21
	 */
	public RedisQuotaBucket(LettuceConnectionFactory connectionFactory, String key, QuotaSettings settings,
			Clock clock, boolean virtualThreads) {
		this.connector = ModelArmorThreads.of(virtualThreads)
			.pool("quota-redis", ModelArmorThreads.Work.WAITS, 1, new LinkedBlockingQueue<>(), Duration.ofSeconds(30),
					new ThreadPoolExecutor.AbortPolicy());
		this.connectionFactory = connectionFactory;
		this.key = key.getBytes(StandardCharsets.UTF_8);
		this.settings = settings;
		this.clock = clock;
		this.fallback = new LocalQuotaBucket(settings.fallback(), clock);
	}

	@Override
	public Reservation reserve() {
		AsyncBucketProxy bucket = this.shared;
		if (bucket == null) {
			connectInBackground();
			return this.fallback.reserve();
		}
		if (this.clock.instant().isBefore(this.skipUntil)) {
			return this.fallback.reserve();
		}
		try {
			long wait = bucket.consumeIgnoringRateLimits(1)
				.get(this.settings.redisTimeout().toNanos(), TimeUnit.NANOSECONDS);
			return new Reservation() {

				@Override
				public long waitNanos() {
					return wait;
				}

				@Override
				public void refund() {
					// not waited for: a refund that fails leaves the fleet a permit short, never one over
					bucket.addTokens(1);
				}

			};
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return this.fallback.reserve();
		}
		catch (ExecutionException | TimeoutException | RuntimeException ex) {
			failed(ex);
			return this.fallback.reserve();
		}
	}

	/** Whether reservations go to Redis now, for tests and health. */
	boolean isShared() {
		return this.shared != null && !this.clock.instant().isBefore(this.skipUntil);
	}

	private void failed(Exception ex) {
		Instant now = this.clock.instant();
		boolean wasUsingRedis = !now.isBefore(this.skipUntil);
		this.skipUntil = now.plus(SKIP_AFTER_FAILURE);
		if (wasUsingRedis) {
			Throwable cause = (ex instanceof ExecutionException && ex.getCause() != null) ? ex.getCause() : ex;
			logger.warn("Model Armor quota kept in this process while Redis fails: failure="
					+ cause.getClass().getSimpleName() + " skip=" + SKIP_AFTER_FAILURE.toSeconds() + "s");
		}
	}

	private void connectInBackground() {
		if (this.closed || this.clock.instant().isBefore(this.skipUntil) || !this.connecting.compareAndSet(false, true)) {
			return;
		}
		try {
			this.connector.execute(() -> {
				try {
					connect();
				}
				catch (RuntimeException ex) {
					failed(ex);
				}
				finally {
					this.connecting.set(false);
				}
			});
		}
		catch (RuntimeException ex) {
			this.connecting.set(false);
		}
	}

	/** The shared bucket over either kind of connection: the same timeout, expiry and configuration. */
	private AsyncBucketProxy bucket(Bucket4jLettuce.LettuceBasedProxyManagerBuilder<byte[]> builder, Duration timeout) {
		return builder.requestTimeout(timeout)
			.expirationAfterWrite(ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(Duration.ofMinutes(1)))
			.build()
			.asAsync()
			.builder()
			.build(this.key, () -> CompletableFuture.completedFuture(LocalQuotaBucket.configuration(this.settings)));
	}

	private void connect() {
		AbstractRedisClient client = this.connectionFactory.getRequiredNativeClient();
		Duration timeout = this.settings.redisTimeout();
		AsyncBucketProxy bucket;
		if (client instanceof RedisClusterClient cluster) {
			StatefulRedisClusterConnection<byte[], byte[]> opened = cluster.connect(ByteArrayCodec.INSTANCE);
			opened.setTimeout(timeout);
			this.connection = opened;
			bucket = bucket(Bucket4jLettuce.casBasedBuilder(opened), timeout);
		}
		else {
			StatefulRedisConnection<byte[], byte[]> opened = ((RedisClient) client).connect(ByteArrayCodec.INSTANCE);
			opened.setTimeout(timeout);
			this.connection = opened;
			bucket = bucket(Bucket4jLettuce.casBasedBuilder(opened), timeout);
		}
		if (this.closed) {
			closeConnection();
			return;
		}
		this.shared = bucket;
		logger.info("Model Armor quota shared through Redis: queriesPerMinute=" + this.settings.queriesPerMinute());
	}

	@Override
	public void close() {
		this.closed = true;
		this.shared = null;
		this.connector.shutdownNow();
		closeConnection();
	}

	private void closeConnection() {
		StatefulConnection<byte[], byte[]> open = this.connection;
		this.connection = null;
		if (open != null) {
			open.closeAsync();
		}
	}

}
