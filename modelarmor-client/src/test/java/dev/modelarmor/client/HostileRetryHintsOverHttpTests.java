package dev.modelarmor.client;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;

import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.modelarmor.retry.CallOutcome;
import dev.modelarmor.retry.HostileHints;
import dev.modelarmor.retry.internal.RetryAfterHints;
import dev.modelarmor.retry.RetrySettings;
import dev.modelarmor.retry.VirtualTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Seeded hostile retry hints ({@link HostileHints}) sent by WireMock with a 503, then a good answer: the
 * template either waits a normal wait and returns the answer, or ends at once with a
 * {@link ModelArmorApiException} whose outcome is {@code retry_after_exceeds_deadline}. Never another
 * exception, never a wait past the deadline. Waits in virtual time; HTTP-dates are read against the real
 * clock, as the client reads them.
 */
class HostileRetryHintsOverHttpTests {

	static final String PATH = ModelArmorTemplateTests.PROMPT_PATH;

	static final Duration DEADLINE = RetrySettings.DEFAULTS.deadline();

	/** Two seconds either side of the deadline: a date hint is read a moment after the test read it. */
	static final Duration SLACK = Duration.ofSeconds(2);

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	@Test
	@Timeout(120)
	void everyHintGivesTheAnswerAfterANormalWaitOrATypedFailureAtOnce() {
		SplittableRandom random = new SplittableRandom(8_675_309);
		VirtualTime time = new VirtualTime();
		ModelArmorTemplate template = ModelArmorTemplate.builder()
			.endpoint(ModelArmorEndpoint.of(modelArmor.baseUrl()))
			.retryRuntime(time.runtime(new SplittableRandom(3)))
			.projectId("demo-project")
			.templateId("default-template")
			.build();
		int waited = 0;
		int refused = 0;
		for (int i = 0; i < 150; i++) {
			String header = HostileHints.sendable(HostileHints.retryAfter(random, Instant.now())).strip();
			String delay = HostileHints.retryInfoDelay(random);
			boolean withHeader = random.nextInt(4) != 0;
			boolean withDetail = random.nextInt(3) == 0;
			Optional<Duration> hint = expectedHint(withHeader ? header : null, withDetail ? delay : null);
			failOnceThenAnswer(withHeader ? header : null, withDetail ? delay : null);
			int sleepsBefore = time.sleeps().size();
			String what = "Retry-After [" + (withHeader ? header : "-") + "] retryDelay [" + (withDetail ? delay : "-")
					+ "]";

			Throwable failure = catchThrowable(() -> assertThat(template.sanitizeUserPrompt("hello").matchFound()).isFalse());

			List<Duration> sleeps = time.sleeps().subList(sleepsBefore, time.sleeps().size());
			if (failure == null) {
				waited++;
				assertThat(sleeps).as(what).singleElement()
					.satisfies((wait) -> assertThat(wait).isLessThanOrEqualTo(DEADLINE));
				hint.ifPresent((expected) -> assertThat(sleeps.get(0)).as(what).isGreaterThanOrEqualTo(expected.minus(SLACK)));
				hint.ifPresent((expected) -> assertThat(expected).as(what).isLessThanOrEqualTo(DEADLINE.plus(SLACK)));
			}
			else {
				refused++;
				assertThat(failure).as(what).isInstanceOfSatisfying(ModelArmorApiException.class, (ex) -> {
					assertThat(ex.statusCode()).isEqualTo(503);
					assertThat(ex.outcome()).contains(CallOutcome.RETRY_AFTER_EXCEEDS_DEADLINE);
					assertThat(ex.attempts()).isEqualTo(1);
					assertThat(ex.retryAfter()).hasValueSatisfying((wait) -> assertThat(wait).isGreaterThan(DEADLINE));
				});
				assertThat(sleeps).as(what).isEmpty();
				assertThat(hint).as(what).hasValueSatisfying((expected) -> assertThat(expected).isGreaterThan(DEADLINE.minus(SLACK)));
			}
			modelArmor.resetScenarios();
		}
		assertThat(waited).as("calls that waited and got their answer").isGreaterThan(30);
		assertThat(refused).as("calls refused at once").isGreaterThan(30);
	}

	private static Optional<Duration> expectedHint(String header, String delay) {
		Optional<Duration> fromHeader = RetryAfterHints.fromRetryAfterHeader(header, Instant.now());
		Optional<Duration> fromDetail = RetryAfterHints.fromRetryInfoDelay(delay);
		return (fromHeader.isPresent() && fromDetail.isPresent())
				? Optional.of((fromHeader.get().compareTo(fromDetail.get()) >= 0) ? fromHeader.get() : fromDetail.get())
				: fromHeader.or(() -> fromDetail);
	}

	private static void failOnceThenAnswer(String header, String delay) {
		ResponseDefinitionBuilder unavailable = aResponse().withStatus(503);
		if (header != null) {
			unavailable.withHeader("Retry-After", header);
		}
		if (delay != null) {
			unavailable.withHeader("Content-Type", "application/json").withBody(HostileHints.unavailableWithRetryInfo(delay));
		}
		modelArmor.resetMappings();
		modelArmor.stubFor(post(urlPathEqualTo(PATH)).inScenario("hint")
			.whenScenarioStateIs(STARTED)
			.willReturn(unavailable)
			.willSetStateTo("answered"));
		modelArmor.stubFor(post(urlPathEqualTo(PATH)).inScenario("hint")
			.whenScenarioStateIs("answered")
			.willReturn(aResponse().withStatus(200)
				.withHeader("Content-Type", "application/json")
				.withBody(ModelArmorTemplateTests.NO_MATCH)));
	}

}
