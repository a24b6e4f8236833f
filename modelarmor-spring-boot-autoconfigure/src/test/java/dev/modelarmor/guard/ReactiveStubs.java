package dev.modelarmor.guard;

import java.time.Duration;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;

import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static org.awaitility.Awaitility.await;

/**
 * WireMock answers for the reactive guard tests: a prompt answered slowly (so that a call can be cancelled
 * while it is in flight) and answers that match a part of the screened text (a window of a stream).
 */
final class ReactiveStubs {

	static final int SLOW_MILLIS = 1500;

	private ReactiveStubs() {
	}

	static void slowPrompt(WireMockExtension modelArmor, String prompt) {
		modelArmor.stubFor(post(urlPathMatching(".*:sanitizeUserPrompt")).atPriority(1)
			.withRequestBody(matchingJsonPath("$.userPromptData.text", equalTo(prompt)))
			.willReturn(okJson(ModelArmorStubs.NO_MATCH).withFixedDelay(SLOW_MILLIS)));
	}

	static void answerResponseContaining(WireMockExtension modelArmor, String part, String json) {
		modelArmor.stubFor(post(urlPathMatching(".*:sanitizeModelResponse")).atPriority(1)
			.withRequestBody(matchingJsonPath("$.modelResponseData.text", containing(part)))
			.willReturn(okJson(json)));
	}

	/** Waits until Model Armor received a prompt screening, which is then in flight. */
	static void awaitPromptInFlight(WireMockExtension modelArmor) {
		await().atMost(Duration.ofSeconds(10)).until(() -> !ModelArmorStubs.promptRequests(modelArmor).isEmpty());
	}

	/** Waits past the slow answer, so that what a cancelled call would have done next has had its chance. */
	static void waitPastTheSlowAnswer() throws InterruptedException {
		Thread.sleep(SLOW_MILLIS + 500);
	}

}
