package dev.modelarmor.resilience;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import dev.modelarmor.autoconfigure.ModelArmorResilienceAutoConfiguration;
import dev.modelarmor.retry.CallOutcome;
import dev.modelarmor.retry.RetryDeadline;
import dev.modelarmor.testredis.RedisServerProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * Two application contexts, as two instances of one application, share a real Redis: the quota of one
 * project is taken from one bucket, so together they never get more than the quota; with Redis stopped,
 * each falls back to its own bucket at once instead of waiting for Redis.
 */
class SharedQuotaTests {

	private static ApplicationContextRunner instance(int port) {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ModelArmorResilienceAutoConfiguration.class))
			.withBean(LettuceConnectionFactory.class,
					() -> new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", port)))
			.withPropertyValues("modelarmor.quota.enabled=true", "modelarmor.quota.queries-per-minute=120",
					"modelarmor.quota.max-wait=0s", "modelarmor.project-id=shared-quota-test");
	}

	@Test
	void twoInstancesShareOneQuotaThroughRedisAndFallBackWhenItStops() throws Exception {
		assumeThat(RedisServerProcess.available()).as("redis-server is installed").isTrue();
		RedisServerProcess redis = RedisServerProcess.start();
		try {
			instance(redis.port()).run((first) -> instance(redis.port()).run((second) -> {
				QuotaLimiter a = first.getBean(QuotaLimiter.class);
				QuotaLimiter b = second.getBean(QuotaLimiter.class);
				awaitShared(first);
				awaitShared(second);
				AtomicInteger granted = new AtomicInteger();
				// 120 a minute is a bucket of 2 refilled every ~0.5 s: within one second, far fewer than 20
				for (int i = 0; i < 10; i++) {
					count(a, granted);
					count(b, granted);
				}
				assertThat(granted.get()).as("permits granted to both in about a second").isBetween(2, 5);

				redis.close();
				long started = System.nanoTime();
				QuotaLimiter.Permit during = a.acquire(RetryDeadline.startingNow(java.time.Clock.systemUTC(),
						Duration.ofSeconds(5)));
				Duration took = Duration.ofNanos(System.nanoTime() - started);
				assertThat(took).as("a stopped Redis costs at most its timeout, loosely").isLessThan(Duration.ofSeconds(2));
				assertThat(during.refusal()).as("the in-process bucket answers").isIn(null, CallOutcome.QUOTA_EXHAUSTED);
			}));
		}
		finally {
			redis.close();
		}
	}

	@ParameterizedTest
	@CsvSource({ "'', 20", "120, 2" })
	void whileRedisCannotBeReachedAnInstanceKeepsItsFallbackQuota(String fallback, int burst) throws Exception {
		int closedPort;
		try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
			closedPort = socket.getLocalPort();
		}
		instance(closedPort)
			.withPropertyValues("modelarmor.quota.queries-per-minute=1200",
					"modelarmor.quota.fallback-queries-per-minute=" + fallback)
			.run((context) -> {
				QuotaLimiter limiter = context.getBean(QuotaLimiter.class);
				int granted = 0;
				for (int i = 0; i < 40; i++) {
					granted += (limiter.acquire(null).refusal() == null) ? 1 : 0;
				}
				assertThat(limiter.isShared()).isFalse();
				assertThat(granted).as("a burst of the in-process bucket: one second's share of its quota")
					.isEqualTo(burst);
			});
	}

	private static void count(QuotaLimiter limiter, AtomicInteger granted) {
		if (limiter.acquire(RetryDeadline.startingNow(java.time.Clock.systemUTC(), Duration.ofSeconds(5)))
			.refusal() == null) {
			granted.incrementAndGet();
		}
	}

	private static void awaitShared(ConfigurableApplicationContext context) throws InterruptedException {
		QuotaLimiter limiter = context.getBean(QuotaLimiter.class);
		long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
		while (!limiter.isShared() && System.nanoTime() < until) {
			limiter.acquire(null);
			Thread.sleep(50);
		}
		assertThat(limiter.isShared()).as("connected to Redis").isTrue();
	}

}
