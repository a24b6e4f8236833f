package dev.modelarmor.autoconfigure;

import io.github.bucket4j.redis.lettuce.Bucket4jLettuce;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;

/**
 * A quota an operator meant to share but that stays in each instance is said at start: the quota is on and
 * the application has Redis, but Bucket4j's Lettuce module is missing, or the connection factory is not
 * Lettuce's. Every other combination starts without a word.
 */
@ExtendWith(OutputCaptureExtension.class)
class QuotaStartupNoticeTests {

	private static final String NOTICE = "but the quota is kept in each instance, not shared through Redis";

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ModelArmorResilienceAutoConfiguration.class))
		.withPropertyValues("modelarmor.project-id=quota-notice-test");

	private static LettuceConnectionFactory lettuce() {
		// a closed port: nothing here connects, the quota falls back to its in-process bucket if asked
		return new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", 1));
	}

	@Test
	void redisWithoutBucket4jsLettuceModuleNamesTheArtifactToAdd(CapturedOutput output) {
		this.runner.withClassLoader(new FilteredClassLoader(Bucket4jLettuce.class))
			.withBean(LettuceConnectionFactory.class, QuotaStartupNoticeTests::lettuce)
			.withPropertyValues("modelarmor.quota.enabled=true")
			.run((context) -> assertThat(context).hasNotFailed());
		assertThat(output.getAll().lines().filter((line) -> line.contains(NOTICE)))
			.singleElement()
			.satisfies((line) -> assertThat(line).contains("WARN")
				.contains("modelarmor.quota.enabled=true")
				.contains("Bucket4j's Lettuce module is not on the class path")
				.contains("com.bucket4j:bucket4j_jdk17-lettuce"));
	}

	@Test
	void aConnectionFactoryOfAnotherClientIsNamed(CapturedOutput output) {
		this.runner.withBean(RedisConnectionFactory.class, () -> mock(RedisConnectionFactory.class))
			.withPropertyValues("modelarmor.quota.enabled=true")
			.run((context) -> assertThat(context).hasNotFailed());
		assertThat(output.getAll().lines().filter((line) -> line.contains(NOTICE)))
			.singleElement()
			.satisfies((line) -> assertThat(line).contains("only a Lettuce one"));
	}

	@Test
	void aSharedQuotaOrNoRedisOrNoQuotaSaysNothing(CapturedOutput output) {
		this.runner.withBean(LettuceConnectionFactory.class, QuotaStartupNoticeTests::lettuce)
			.withPropertyValues("modelarmor.quota.enabled=true")
			.run((context) -> assertThat(context).hasNotFailed());
		this.runner.withPropertyValues("modelarmor.quota.enabled=true")
			.run((context) -> assertThat(context).hasNotFailed());
		this.runner.withClassLoader(new FilteredClassLoader(RedisConnectionFactory.class))
			.withPropertyValues("modelarmor.quota.enabled=true")
			.run((context) -> assertThat(context).hasNotFailed());
		this.runner.withClassLoader(new FilteredClassLoader(Bucket4jLettuce.class))
			.withBean(LettuceConnectionFactory.class, QuotaStartupNoticeTests::lettuce)
			.run((context) -> assertThat(context).hasNotFailed());
		assertThat(output.getAll()).doesNotContain(NOTICE);
	}

}
