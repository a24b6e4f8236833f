package dev.modelarmor.client;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.SplittableRandom;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.modelarmor.client.internal.RestTemplateOperations;
import dev.modelarmor.internal.Utf8;
import dev.modelarmor.retry.BackoffSchedule;
import dev.modelarmor.retry.CallOutcome;
import dev.modelarmor.retry.RetrySettings;
import dev.modelarmor.retry.VirtualTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.absent;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Loops a server or an input could keep going for ever end, and end with a clear error: retries whose
 * waits are never really slept (virtual time) against a server that always fails, paging against a
 * server that always has a next page, and the UTF-8 walk over text made to confuse it. Each test has a
 * timeout, so that a regression fails instead of hanging the build.
 */
class EndlessLoopTests {

	static final String TEMPLATES = "/v1/projects/p/locations/l/templates";

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	private final VirtualTime time = new VirtualTime();

	@Test
	@Timeout(30)
	void retriesThatNeverSleepStillEndAtTheDeadline() {
		modelArmor.stubFor(post(urlPathEqualTo(TEMPLATES + "/default-template:sanitizeUserPrompt"))
			.willReturn(aResponse().withStatus(503)));
		RetrySettings fastest = new RetrySettings(new BackoffSchedule(Duration.ofMillis(1), Duration.ZERO,
				Duration.ofMillis(1)), Duration.ofMillis(50), true, true);

		// the last attempts may time out rather than get their 503: the read timeout is what is left of the
		// virtual deadline, a millisecond or less, while a real request takes a few
		assertThatExceptionOfType(ModelArmorException.class)
			.isThrownBy(() -> template(fastest).sanitizeUserPrompt("hello"))
			.satisfies((ex) -> {
				assertThat(ex.outcome()).contains(CallOutcome.DEADLINE_EXCEEDED);
				// one attempt, then at most 50 waits of 1 ms fit in the 50 ms deadline
				assertThat(ex.attempts()).isBetween(2, 51);
			});
		assertThat(this.time.totalSlept()).isLessThanOrEqualTo(Duration.ofMillis(50));
	}

	@Test
	@Timeout(30)
	void aPageTokenRepeatedForeverEndsWithAClearError() {
		modelArmor.stubFor(get(urlPathEqualTo(TEMPLATES)).willReturn(okJson("{\"templates\": [], \"nextPageToken\": \"again\"}")));

		assertThatExceptionOfType(ModelArmorException.class).isThrownBy(() -> template(RetrySettings.DEFAULTS).templates().list())
			.withMessage("Model Armor answered the same page token twice while listing templates");
		modelArmor.verify(2, getRequestedFor(urlPathEqualTo(TEMPLATES)));
	}

	@Test
	@Timeout(120)
	void aNewPageTokenOnEveryPageForeverEndsWithAClearError() {
		// every answer's token is the request's token and one more letter: never the same twice
		modelArmor.stubFor(get(urlPathEqualTo(TEMPLATES)).withQueryParam("pageToken", absent())
			.willReturn(okJson("{\"templates\": [], \"nextPageToken\": \"p\"}")));
		modelArmor.stubFor(get(urlPathEqualTo(TEMPLATES)).atPriority(10)
			.willReturn(okJson("{\"templates\": [], \"nextPageToken\": \"{{request.query.pageToken}}p\"}")
				.withTransformers("response-template")));

		assertThatExceptionOfType(ModelArmorException.class).isThrownBy(() -> template(RetrySettings.DEFAULTS).templates().list())
			.withMessage("Model Armor answered more than 1000 pages while listing templates, each with a new page token; "
					+ "listing stopped");
		modelArmor.verify(RestTemplateOperations.MAX_PAGES, getRequestedFor(urlPathEqualTo(TEMPLATES)));
	}

	@Test
	@Timeout(10)
	void theUtf8WalkEndsOnTextMadeOfBrokenSurrogates() {
		int chars = DataItem.MAX_BYTES;
		StringBuilder highs = new StringBuilder(chars);
		StringBuilder alternating = new StringBuilder(chars);
		for (int i = 0; i < chars; i++) {
			highs.append('\ud83d');
			alternating.append((i % 3 == 2) ? '\ude00' : '\ud83d');
		}
		assertThat(Utf8.length(highs)).isEqualTo(3L * chars);
		// pairs (high, low) every third char are 4 bytes per pair, the high left over 3 bytes
		assertThat(Utf8.length(alternating)).isEqualTo((chars / 3) * (3L + 4L) + (chars % 3) * 3L);
		assertThat(Utf8.length(highs + "\ude00")).isEqualTo(3L * chars + 1);
		String wellFormed = "\ud83d\ude00".repeat(chars / 2);
		assertThat(Utf8.length(wellFormed)).isEqualTo(wellFormed.getBytes(StandardCharsets.UTF_8).length);
	}

	@Test
	@Timeout(10)
	void textPastTheLimitIsRefusedWithoutSendingHoweverItIsBroken() {
		String broken = "\ud83d".repeat(DataItem.MAX_BYTES / 3 + 1);

		assertThatExceptionOfType(ModelArmorInputTooLargeException.class)
			.isThrownBy(() -> template(RetrySettings.DEFAULTS).sanitizeUserPrompt(broken));
		// Requests of earlier tests can still land after the server's reset (a retry in flight when its test
		// ended); none of them carries text this long.
		assertThat(modelArmor.getAllServeEvents()).noneMatch(
				(event) -> event.getRequest().getBody().length > DataItem.MAX_BYTES);
	}

	private ModelArmorTemplate template(RetrySettings settings) {
		return ModelArmorTemplate.builder()
			.endpoint(ModelArmorEndpoint.of(modelArmor.baseUrl()))
			.retrySettings(settings)
			.retryRuntime(this.time.runtime(new SplittableRandom(1)))
			.projectId("p")
			.location("l")
			.templateId("default-template")
			.build();
	}

	private static com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder okJson(String body) {
		return aResponse().withStatus(200).withHeader("Content-Type", "application/json").withBody(body);
	}

}
