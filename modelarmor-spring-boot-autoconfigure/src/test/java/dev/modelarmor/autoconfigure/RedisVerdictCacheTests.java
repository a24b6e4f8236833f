package dev.modelarmor.autoconfigure;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.modelarmor.autoconfigure.VerdictCacheAutoConfigurationTests.Application;
import dev.modelarmor.autoconfigure.VerdictCacheAutoConfigurationTests.Caching;
import dev.modelarmor.client.ModelArmorConfigurationException;
import dev.modelarmor.guard.ModelArmorStubs;
import dev.modelarmor.observation.internal.MicrometerVerdictCacheObserver;
import dev.modelarmor.screening.ModelArmorViolationException;
import dev.modelarmor.screening.cache.VerdictCache;
import dev.modelarmor.testredis.RedisServerProcess;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.cache.autoconfigure.CacheAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.cache.CacheManager;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.cache.RedisCacheConfiguration;
import org.springframework.data.redis.cache.RedisCacheManager;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static dev.modelarmor.guard.ModelArmorStubs.JAILBREAK;
import static dev.modelarmor.guard.ModelArmorStubs.answerEverythingClean;
import static dev.modelarmor.guard.ModelArmorStubs.answerPrompt;
import static dev.modelarmor.guard.ModelArmorStubs.promptRequests;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The verdict cache on a real Redis ({@code redis-server} on a free loopback port, started here), through
 * Spring Boot's own Redis and cache auto-configuration with their defaults (Lettuce, a 60 s command
 * timeout): two application contexts sharing it, values written into it by hand, and Redis stopped and
 * stalled under a guarded call.
 */
@ExtendWith(OutputCaptureExtension.class)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RedisVerdictCacheTests {

	static final String QUESTION = VerdictCacheAutoConfigurationTests.QUESTION;

	static final String INJECTION = VerdictCacheAutoConfigurationTests.INJECTION;

	static final String SIGNING_KEY = VerdictCacheAutoConfigurationTests.SIGNING_KEY;

	static final String PREFIX = VerdictCache.DEFAULT_NAME + "::";

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	RedisServerProcess redis;

	@BeforeEach
	void startRedis() throws IOException {
		Assumptions.assumeTrue(RedisServerProcess.available(), "redis-server is not installed");
		this.redis = RedisServerProcess.start();
		answerEverythingClean(modelArmor);
		answerPrompt(modelArmor, INJECTION, JAILBREAK);
	}

	@AfterEach
	void stopRedis() {
		if (this.redis != null) {
			this.redis.close();
		}
	}

	ApplicationContextRunner runner() {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ModelArmorObservationAutoConfiguration.class,
					ModelArmorAutoConfiguration.class, ModelArmorGuardAutoConfiguration.class,
					ModelArmorCacheAutoConfiguration.class, CacheAutoConfiguration.class,
					DataRedisAutoConfiguration.class))
			.withPropertyValues(ModelArmorStubs.properties(modelArmor))
			.withPropertyValues("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + this.redis.port())
			.withUserConfiguration(ModelArmorStubs.InstantRetries.class, Application.class);
	}

	/**
	 * The cache on Redis. A timeout of a second, not the default 100 ms, where a test is about what is
	 * stored: on a loaded machine a lookup that times out stores nothing. The timed tests use the default.
	 */
	// The longest operation timeout allowed: these tests assert what is stored, and a loaded CI machine can take
	// over a second for a fresh instance's first Redis command; the timing test sets the default back.
	ApplicationContextRunner cached() {
		return runner().withUserConfiguration(Caching.class)
			.withPropertyValues("modelarmor.cache.enabled=true", "spring.cache.type=redis",
					"modelarmor.cache.signing-key=" + SIGNING_KEY, "modelarmor.cache.operation-timeout=5s");
	}

	@Test
	void twoInstancesShareOneRedisAndItHoldsSignedTextWithTheVerdictsTimeToLive() {
		cached().run((one) -> cached().run((two) -> {
			// each instance connects to Redis first
			VerdictCacheAutoConfigurationTests.ask(one, "warm-up of one");
			VerdictCacheAutoConfigurationTests.ask(two, "warm-up of two");
			assertThat(VerdictCacheAutoConfigurationTests.ask(one, QUESTION)).isEqualTo("Crossings take an hour.");
			assertThat(promptRequests(modelArmor)).hasSize(3);
			assertThat(VerdictCacheAutoConfigurationTests.ask(two, QUESTION)).isEqualTo("Crossings take an hour.");
			assertThat(promptRequests(modelArmor)).as("the verdict screened by the other instance").hasSize(3);
			assertThat(lookups(two, "hit")).isEqualTo(1);
		}));
		List<String> keys = keys();
		assertThat(keys).hasSizeBetween(2, 6).allSatisfy((key) -> assertThat(key).startsWith(PREFIX + "v2:sanitize_")
			.doesNotContainIgnoringCase("ferry"));
		for (String key : keys) {
			assertThat(command("GET", key)).startsWith("{\"kid\":\"").contains("\"verdict\":\"NO_MATCH\"")
				.doesNotContainIgnoringCase("ferry");
			assertThat(Long.parseLong(command("TTL", key))).as("the entry's TTL is the verdicts' time to live")
				.isBetween(1L, VerdictCache.DEFAULT_TIME_TO_LIVE.toSeconds());
		}
	}

	@Test
	void aNoMatchWrittenIntoRedisByHandIsAMissAndModelArmorIsCalled(CapturedOutput output) {
		cached().run((one) -> {
			// each instance connects to Redis first
			VerdictCacheAutoConfigurationTests.ask(one, QUESTION);
			// A write is skipped when its lookup failed (a fresh connection on a loaded machine): ask again until
			// the injection's verdict is stored, counting the Model Armor calls it took.
			String key = null;
			for (int attempt = 0; attempt < 5 && key == null; attempt++) {
				assertThatExceptionOfType(ModelArmorViolationException.class)
					.isThrownBy(() -> VerdictCacheAutoConfigurationTests.ask(one, INJECTION));
				key = keys().stream().filter((k) -> command("GET", k).contains("\"MATCHED\"")).findFirst()
					.orElse(null);
			}
			assertThat(key).as("the injection's verdict stored in Redis").isNotNull();
			int callsBefore = promptRequests(modelArmor).size();
			String stored = command("GET", key);
			// under the right key, the value changed to a pass: its signature no longer verifies
			String forged = stored.replace("\"MATCHED\"", "\"NO_MATCH\"")
				.replaceAll("\"filters\":\\[[^\\]]*\\]", "\"filters\":[]");
			assertThat(forged).isNotEqualTo(stored);
			command("SET", key, forged);
			// under keys computed the old way (a plain SHA-256), what a writer without the key can compute
			command("SET", PREFIX + "v1:sanitize_user_prompt:" + "projects/demo-project/locations/us-central1/templates/default-template:" + "0".repeat(64),
					forged);
			cached().run((two) -> {
				assertThatExceptionOfType(ModelArmorViolationException.class)
					.isThrownBy(() -> VerdictCacheAutoConfigurationTests.ask(two, INJECTION));
				assertThat(lookups(two, "forged")).isEqualTo(1);
			});
			assertThat(promptRequests(modelArmor)).as("the forged pass is a miss: Model Armor screens the injection")
				.hasSize(callsBefore + 1);
		});
		assertThat(output.getOut()).contains("a possible forgery").doesNotContain(SIGNING_KEY);
	}

	@Test
	void aRedisCacheManagerOfTheApplicationsOwnWithJavaSerializationIsRefused() {
		runner().withUserConfiguration(Caching.class, OwnRedisCacheManager.class)
			.withPropertyValues("modelarmor.cache.enabled=true", "modelarmor.cache.signing-key=" + SIGNING_KEY)
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.isInstanceOf(ModelArmorConfigurationException.class)
				.hasMessageContaining("does not store values as text"));
	}

	@Test
	void aRedisCacheWithoutASigningKeyFailsStartupNamingIt() {
		runner().withUserConfiguration(Caching.class)
			.withPropertyValues("modelarmor.cache.enabled=true", "spring.cache.type=redis")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageStartingWith("modelarmor.cache.signing-key: ")
				.hasMessageContaining("openssl rand -base64 32"));
	}

	@Test
	void redisStoppedAddsAtMostTheOperationTimeoutToACall(CapturedOutput output) {
		timed("stopped", this.redis::kill, output);
	}

	@Test
	void redisStalledAddsAtMostTheOperationTimeoutToACall(CapturedOutput output) {
		timed("stalled", this.redis::pause, output);
	}

	/** Times guarded calls of new texts, each a miss, before and after Redis fails. */
	void timed(String what, Runnable failure, CapturedOutput output) {
		cached().withPropertyValues("modelarmor.cache.operation-timeout=" + VerdictCache.DEFAULT_OPERATION_TIMEOUT.toMillis()
				+ "ms").run((context) -> {
			for (int i = 0; i < 5; i++) {
				VerdictCacheAutoConfigurationTests.ask(context, QUESTION + " warm-up " + i);
			}
			long[] before = times(context, "before", 10);
			failure.run();
			long[] after = times(context, "after", 10);
			long baseline = median(before);
			long worst = Arrays.stream(after).max().orElseThrow();
			System.out.println("Redis " + what + ", Boot's Redis defaults: calls before " + Arrays.toString(before)
					+ " ms, after " + Arrays.toString(after) + " ms; time added: worst " + (worst - baseline)
					+ " ms, median " + (median(after) - baseline) + " ms");
			// 100 ms operation timeout, then skipped; a loose bound for a loaded machine, far below 60 s
			assertThat(worst).isLessThan(2000);
			assertThat(lookups(context, "error")).isBetween(1.0, 3.0);
			assertThat(lookups(context, "skipped")).isGreaterThanOrEqualTo(7);
		});
		assertThat(output.getOut()).contains("Model Armor verdict cache is failing, screening without it");
	}

	static long[] times(ApplicationContext context, String label, int count) {
		long[] times = new long[count];
		for (int i = 0; i < count; i++) {
			long start = System.nanoTime();
			assertThat(VerdictCacheAutoConfigurationTests.ask(context, QUESTION + " " + label + " " + i))
				.isEqualTo("Crossings take an hour.");
			times[i] = Duration.ofNanos(System.nanoTime() - start).toMillis();
		}
		return times;
	}

	static long median(long[] times) {
		long[] sorted = times.clone();
		Arrays.sort(sorted);
		return sorted[sorted.length / 2];
	}

	static double lookups(ApplicationContext context, String result) {
		return context.getBean(MeterRegistry.class)
			.get(MicrometerVerdictCacheObserver.LOOKUPS)
			.tags("operation", "sanitize_user_prompt", "result", result)
			.counter()
			.count();
	}

	List<String> keys() {
		String answer = command("KEYS", PREFIX + "*");
		List<String> keys = new ArrayList<>();
		for (String key : answer.split("\n")) {
			if (!key.isEmpty() && key.contains("sanitize_user_prompt")) {
				keys.add(0, key);
			}
			else if (!key.isEmpty()) {
				keys.add(key);
			}
		}
		return keys;
	}

	String command(String... arguments) {
		try {
			return this.redis.command(arguments);
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	@Configuration(proxyBeanMethods = false)
	static class OwnRedisCacheManager {

		@Bean
		CacheManager cacheManager(RedisConnectionFactory connectionFactory) {
			return RedisCacheManager.builder(connectionFactory)
				.withCacheConfiguration(VerdictCache.DEFAULT_NAME, RedisCacheConfiguration.defaultCacheConfig())
				.build();
		}

	}

}
