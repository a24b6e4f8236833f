package dev.modelarmor.resilience;

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
 * The retry budget is on by default: in a 429 storm the calls of one client stop retrying after the
 * budget's first half is spent, instead of multiplying the load by their retries (the issue measured 12 x
 * the quota across a fleet). 429s are still retried while the budget lasts. Retries in virtual time.
 */
class RetryBudgetDefaultTests {

	private static final int CALLS = 40;

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(ModelArmorAutoConfiguration.class, ModelArmorResilienceAutoConfiguration.class))
		.withPropertyValues(ModelArmorStubs.properties(modelArmor))
		.withUserConfiguration(ModelArmorStubs.InstantRetries.class);

	@Test
	void aStormOfTooManyRequestsIsNotMultipliedByRetriesWithTheDefaults() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(RetryBudget.class);
			assertThat(storm(context.getBean(ModelArmorOperations.class)))
				.as("10 tokens, retries while more than 5 are left: 4 retries in all")
				.isEqualTo(CALLS + 4);
		});
	}

	@Test
	void withoutTheBudgetEveryCallRetriesUntilItsDeadline() {
		this.runner.withPropertyValues("modelarmor.retry.budget.enabled=false").run((context) -> {
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

}
