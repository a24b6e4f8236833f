package dev.modelarmor.guard;

import java.time.Instant;
import java.util.SplittableRandom;

import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.modelarmor.client.ModelArmorApiException;
import dev.modelarmor.retry.CallOutcome;
import dev.modelarmor.retry.HostileHints;
import dev.modelarmor.screening.ModelArmorNotScreenedException;
import dev.modelarmor.screening.Phase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED;
import static dev.modelarmor.guard.ModelArmorStubs.answerEverythingClean;
import static dev.modelarmor.guard.RecordService.ANSWER;
import static dev.modelarmor.guard.RecordService.QUESTION;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Seeded hostile retry hints ({@link HostileHints}) on the prompt's screening of a
 * {@code @ModelArmorGuarded} method in a real application context: the method runs after a normal wait,
 * or the call is blocked (fail-closed) with the typed cause {@code retry_after_exceeds_deadline}. Never
 * another exception, and the body never runs unscreened. Retries in virtual time.
 */
class HostileRetryHintGuardTests {

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	@Test
	@Timeout(120)
	void everyHintEndsInTheScreenedCallOrABlockNamingTheHint() {
		SplittableRandom random = new SplittableRandom(4_242);
		// 80 hints in one context: a retry budget would stop retrying partway through
		ModelArmorStubs.runner(modelArmor)
			.withPropertyValues("modelarmor.retry.budget.enabled=false")
			.withUserConfiguration(ModelArmorStubs.InstantRetries.class, RecordService.Beans.class)
			.run((context) -> {
				RecordService service = context.getBean(RecordService.class);
				BodyRuns runs = context.getBean(BodyRuns.class);
				int answered = 0;
				int blocked = 0;
				for (int i = 0; i < 80; i++) {
					String header = HostileHints.sendable(HostileHints.retryAfter(random, Instant.now())).strip();
					String delay = HostileHints.retryInfoDelay(random);
					failPromptOnceThenAnswer(header, random.nextBoolean() ? delay : null);
					long runsBefore = runs.count();
					String what = "Retry-After [" + header + "] retryDelay [" + delay + "]";

					Throwable failure = catchThrowable(() -> assertThat(service.summarise(QUESTION)).isEqualTo(ANSWER));

					if (failure == null) {
						answered++;
						assertThat(runs.count()).as(what).isEqualTo(runsBefore + 1);
					}
					else {
						blocked++;
						assertThat(failure).as(what).isInstanceOfSatisfying(ModelArmorNotScreenedException.class, (ex) -> {
							assertThat(ex.phase()).isEqualTo(Phase.PROMPT);
							assertThat(ex.getCause()).isInstanceOfSatisfying(ModelArmorApiException.class,
									(cause) -> assertThat(cause.outcome()).contains(CallOutcome.RETRY_AFTER_EXCEEDS_DEADLINE));
							assertThat(ex.getMessage()).doesNotContain(QUESTION);
						});
						assertThat(runs.count()).as(what).isEqualTo(runsBefore);
					}
					modelArmor.resetScenarios();
				}
				assertThat(answered).isGreaterThan(10);
				assertThat(blocked).isGreaterThan(10);
			});
	}

	private static void failPromptOnceThenAnswer(String header, String delay) {
		modelArmor.resetMappings();
		answerEverythingClean(modelArmor);
		ResponseDefinitionBuilder unavailable = aResponse().withStatus(503).withHeader("Retry-After", header);
		if (delay != null) {
			unavailable.withHeader("Content-Type", "application/json").withBody(HostileHints.unavailableWithRetryInfo(delay));
		}
		modelArmor.stubFor(post(urlPathEqualTo(ModelArmorStubs.promptPath())).atPriority(1)
			.inScenario("hint")
			.whenScenarioStateIs(STARTED)
			.willReturn(unavailable)
			.willSetStateTo("answered"));
	}

}
