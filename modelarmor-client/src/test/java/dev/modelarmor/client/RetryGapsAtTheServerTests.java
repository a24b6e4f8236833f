package dev.modelarmor.client;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import dev.modelarmor.retry.BackoffSchedule;
import dev.modelarmor.retry.RetryRuntime;
import dev.modelarmor.retry.RetrySettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;


import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Google's schedule in real time, seen from the server: Google's defaults scaled down by ten
 * (100 ms initial backoff, 100 ms jitter, 3.2 s cap) for a 503, 503, 503, 200 run. The gaps between the
 * requests WireMock receives must be at least the schedule's lower bounds; the upper bounds are loose
 * because a loaded CI machine may add latency, never remove it.
 */
class RetryGapsAtTheServerTests {

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	@Test
	void gapsBetweenAttemptsFollowTheScaledDownSchedule() {
		String[] states = { STARTED, "second", "third", "fourth" };
		for (int i = 0; i < 3; i++) {
			modelArmor.stubFor(post(urlPathMatching(".*:sanitizeUserPrompt")).inScenario("gaps")
				.whenScenarioStateIs(states[i])
				.willReturn(aResponse().withStatus(503))
				.willSetStateTo(states[i + 1]));
		}
		modelArmor.stubFor(post(urlPathMatching(".*:sanitizeUserPrompt")).inScenario("gaps")
			.whenScenarioStateIs("fourth")
			.willReturn(okJson("{\"sanitizationResult\": {\"filterMatchState\": \"NO_MATCH_FOUND\"}}")));
		RetrySettings scaledDown = new RetrySettings(
				new BackoffSchedule(Duration.ofMillis(100), Duration.ofMillis(100), Duration.ofMillis(3200)),
				Duration.ofSeconds(6), true, true);
		ModelArmorTemplate template = ModelArmorTemplate.builder()
			.endpoint(ModelArmorEndpoint.of(modelArmor.baseUrl()))
			.retrySettings(scaledDown)
			.retryRuntime(RetryRuntime.system())
			.projectId("p")
			.templateId("t")
			.build();

		template.sanitizeUserPrompt("hello");

		List<Long> gaps = gapsInMillis(modelArmor.getAllServeEvents());
		System.out.println("Retry gaps at the server (ms), schedule 100-200, 200-300, 400-500: " + gaps);
		assertThat(gaps).hasSize(3);
		for (int n = 0; n < 3; n++) {
			long lower = 100L << n;
			// WireMock logs whole milliseconds: allow 1 ms of rounding below the bound.
			assertThat(gaps.get(n)).as("gap before retry %d", n).isBetween(lower - 1, lower + 100 + 1_500);
		}
	}

	private static List<Long> gapsInMillis(List<ServeEvent> events) {
		List<Long> times = events.stream()
			.map((event) -> event.getRequest().getLoggedDate().getTime())
			.sorted(Comparator.naturalOrder())
			.toList();
		List<Long> gaps = new ArrayList<>();
		for (int i = 1; i < times.size(); i++) {
			gaps.add(times.get(i) - times.get(i - 1));
		}
		return gaps;
	}

}
