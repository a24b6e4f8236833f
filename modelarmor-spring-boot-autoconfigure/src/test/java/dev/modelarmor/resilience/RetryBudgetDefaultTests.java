package dev.modelarmor.resilience;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.SplittableRandom;

import dev.modelarmor.retry.RetryRuntime;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.modelarmor.autoconfigure.ModelArmorAutoConfiguration;
import dev.modelarmor.autoconfigure.ModelArmorResilienceAutoConfiguration;
import dev.modelarmor.client.ModelArmorException;
import dev.modelarmor.client.ModelArmorOperations;
import dev.modelarmor.guard.ModelArmorStubs;
import dev.modelarmor.retry.RetryBudget;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The retry budget is on by default: in a 429 storm whose failure rate has lasted, the retries of one client
 * are held to 20 % of its calls plus a floor of one a second, instead of multiplying the load (12 x the quota
 * across a fleet without a budget). 429s are still retried while the budget lasts. Retries in virtual time.
 */
class RetryBudgetDefaultTests {

	private static final int CALLS = 40;

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(ModelArmorAutoConfiguration.class, ModelArmorResilienceAutoConfiguration.class))
		.withPropertyValues(ModelArmorStubs.properties(modelArmor));

	@Test
	void aStormOfTooManyRequestsIsNotMultipliedByRetriesOnceItsFailureRateHasLasted() {
		// the 40 calls come within one second, as concurrent callers' would: the clock stands still, so the
		// failure rate is judged at once (threshold 0, failing-for 0 s); FleetDefaultsTests drive the defaults
		this.runner.withUserConfiguration(StormInOneSecond.class)
			.withPropertyValues("modelarmor.retry.budget.failure-rate-threshold=0",
					"modelarmor.retry.budget.failing-for=0s")
			.run((context) -> {
			assertThat(context).hasSingleBean(RetryBudget.class);
			assertThat(storm(context.getBean(ModelArmorOperations.class)))
				.as("20 % of 40 calls plus a floor of 1 retry of a 429 a second over 10 s: 18 retries in all")
				.isEqualTo(CALLS + 18);
		});
	}

	@Test
	void withoutTheBudgetEveryCallRetriesUntilItsDeadline() {
		this.runner.withUserConfiguration(ModelArmorStubs.InstantRetries.class)
			.withPropertyValues("modelarmor.retry.budget.enabled=false").run((context) -> {
			assertThat(context).doesNotHaveBean(RetryBudget.class);
			assertThat(storm(context.getBean(ModelArmorOperations.class))).isGreaterThanOrEqualTo(CALLS * 5);
		});
	}

	/** The requests Model Armor got for {@link #CALLS} calls, each answered 429 on every attempt. */
	private static int storm(ModelArmorOperations client) {
		modelArmor.resetAll();
		modelArmor.stubFor(post(urlPathMatching(".*")).willReturn(aResponse().withStatus(429)));
		for (int i = 0; i < CALLS; i++) {
			assertThatExceptionOfType(ModelArmorException.class).isThrownBy(() -> client.sanitizeUserPrompt("hello"));
		}
		return modelArmor.getAllServeEvents().size();
	}

	@Configuration(proxyBeanMethods = false)
	static class StormInOneSecond {

		@Bean
		RetryRuntime stormRetryRuntime() {
			return new RetryRuntime(Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC), (millis) -> {
			}, new SplittableRandom(1));
		}

	}

}
