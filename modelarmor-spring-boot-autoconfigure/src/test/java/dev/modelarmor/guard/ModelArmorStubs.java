package dev.modelarmor.guard;

import java.util.List;
import java.util.SplittableRandom;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.modelarmor.autoconfigure.ModelArmorAutoConfiguration;
import dev.modelarmor.autoconfigure.ModelArmorGuardAutoConfiguration;
import dev.modelarmor.retry.RetryRuntime;
import dev.modelarmor.retry.VirtualTime;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;

/**
 * Model Armor as WireMock plays it for the guard tests: real API JSON, answered per screened text, and
 * the application context that calls it.
 */
public final class ModelArmorStubs {

	public static final String PROJECT = "demo-project";

	public static final String LOCATION = "us-central1";

	public static final String DEFAULT_TEMPLATE = "default-template";

	public static final String NO_MATCH = """
			{"sanitizationResult": {"filterMatchState": "NO_MATCH_FOUND", "invocationResult": "SUCCESS"}}""";

	public static final String JAILBREAK = """
			{"sanitizationResult": {"filterMatchState": "MATCH_FOUND", "invocationResult": "SUCCESS",
			 "filterResults": {"pi_and_jailbreak": {"piAndJailbreakFilterResult": {
			  "executionState": "EXECUTION_SUCCESS", "matchState": "MATCH_FOUND", "confidenceLevel": "HIGH"}}}}}""";

	public static final String RAI_DANGEROUS = """
			{"sanitizationResult": {"filterMatchState": "MATCH_FOUND", "invocationResult": "SUCCESS",
			 "filterResults": {"rai": {"raiFilterResult": {"executionState": "EXECUTION_SUCCESS",
			  "matchState": "MATCH_FOUND", "raiFilterTypeResults": {"dangerous": {
			   "confidenceLevel": "HIGH", "matchState": "MATCH_FOUND"}}}}}}}""";

	private ModelArmorStubs() {
	}

	/**
	 * SDP de-identified the text, and no other filter matched.
	 * @param deidentified the de-identified text
	 * @return the JSON answer
	 */
	public static String deidentified(String deidentified) {
		return """
				{"sanitizationResult": {"filterMatchState": "MATCH_FOUND", "invocationResult": "SUCCESS",
				 "filterResults": {%s}}}""".formatted(sdp(deidentified));
	}

	/**
	 * SDP de-identified the text and RAI matched as well.
	 * @param deidentified the de-identified text
	 * @return the JSON answer
	 */
	public static String deidentifiedAndDangerous(String deidentified) {
		return """
				{"sanitizationResult": {"filterMatchState": "MATCH_FOUND", "invocationResult": "SUCCESS",
				 "filterResults": {%s, "rai": {"raiFilterResult": {"executionState": "EXECUTION_SUCCESS",
				  "matchState": "MATCH_FOUND", "raiFilterTypeResults": {"dangerous": {
				   "confidenceLevel": "HIGH", "matchState": "MATCH_FOUND"}}}}}}}""".formatted(sdp(deidentified));
	}

	private static String sdp(String deidentified) {
		return """
				"sdp": {"sdpFilterResult": {"deidentifyResult": {"executionState": "EXECUTION_SUCCESS",
				 "matchState": "MATCH_FOUND", "data": {"text": "%s"}, "infoTypes": ["CREDIT_CARD_NUMBER"]}}}"""
			.formatted(deidentified);
	}

	/**
	 * Nothing matched, but not every filter ran.
	 * @param invocationResult {@code PARTIAL} or {@code FAILURE}
	 * @param ignorePartialInvocationFailures the template's setting
	 * @return the JSON answer
	 */
	public static String incomplete(String invocationResult, boolean ignorePartialInvocationFailures) {
		return """
				{"sanitizationResult": {"filterMatchState": "NO_MATCH_FOUND", "invocationResult": "%s",
				 "filterResults": {"rai": {"raiFilterResult": {"executionState": "EXECUTION_SKIPPED",
				  "matchState": "MATCH_STATE_UNSPECIFIED"}}},
				 "sanitizationMetadata": {"errorCode": 500, "errorMessage": "rai filter timed out",
				  "ignorePartialInvocationFailures": %s}}}""".formatted(invocationResult,
					ignorePartialInvocationFailures);
	}

	public static String path(String template, String method) {
		return "/v1/projects/" + PROJECT + "/locations/" + LOCATION + "/templates/" + template + ":" + method;
	}

	public static String promptPath() {
		return path(DEFAULT_TEMPLATE, "sanitizeUserPrompt");
	}

	public static String responsePath() {
		return path(DEFAULT_TEMPLATE, "sanitizeModelResponse");
	}

	/**
	 * Answers every screening, of any template, with no match, below the priority of specific answers.
	 * @param modelArmor the server
	 */
	public static void answerEverythingClean(WireMockExtension modelArmor) {
		modelArmor.stubFor(post(urlPathMatching(".*:sanitize(UserPrompt|ModelResponse)")).atPriority(10)
			.willReturn(okJson(NO_MATCH)));
	}

	/**
	 * Answers the screening of one prompt text.
	 * @param modelArmor the server
	 * @param prompt the prompt text that gets this answer
	 * @param json the answer
	 */
	public static void answerPrompt(WireMockExtension modelArmor, String prompt, String json) {
		modelArmor.stubFor(post(urlPathMatching(".*:sanitizeUserPrompt")).atPriority(1)
			.withRequestBody(matchingJsonPath("$.userPromptData.text", equalTo(prompt)))
			.willReturn(okJson(json)));
	}

	/**
	 * Answers the screening of one response text.
	 * @param modelArmor the server
	 * @param response the response text that gets this answer
	 * @param json the answer
	 */
	public static void answerResponse(WireMockExtension modelArmor, String response, String json) {
		modelArmor.stubFor(post(urlPathMatching(".*:sanitizeModelResponse")).atPriority(1)
			.withRequestBody(matchingJsonPath("$.modelResponseData.text", equalTo(response)))
			.willReturn(okJson(json)));
	}

	/**
	 * Model Armor is down: every call is answered 503.
	 * @param modelArmor the server
	 */
	public static void failEverything(WireMockExtension modelArmor) {
		modelArmor.stubFor(post(urlPathMatching(".*")).willReturn(aResponse().withStatus(503)));
	}

	public static List<LoggedRequest> promptRequests(WireMockExtension modelArmor) {
		return modelArmor.findAll(postRequestedFor(urlPathMatching(".*:sanitizeUserPrompt")));
	}

	public static List<LoggedRequest> responseRequests(WireMockExtension modelArmor) {
		return modelArmor.findAll(postRequestedFor(urlPathMatching(".*:sanitizeModelResponse")));
	}

	public static List<LoggedRequest> requestsTo(WireMockExtension modelArmor, String path) {
		return modelArmor.findAll(postRequestedFor(urlPathEqualTo(path)));
	}

	/**
	 * A context with both auto-configurations, calling the server with the default template.
	 * @param modelArmor the server
	 * @return the runner
	 */
	public static ApplicationContextRunner runner(WireMockExtension modelArmor) {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ModelArmorAutoConfiguration.class,
					ModelArmorGuardAutoConfiguration.class))
			.withPropertyValues(properties(modelArmor));
	}

	public static String[] properties(WireMockExtension modelArmor) {
		return new String[] { "modelarmor.project-id=" + PROJECT, "modelarmor.location=" + LOCATION,
				"modelarmor.template-id=" + DEFAULT_TEMPLATE, "modelarmor.credentials.enabled=false",
				"modelarmor.endpoint=" + modelArmor.baseUrl() };
	}

	/**
	 * Retries in virtual time, so that an outage is given up on at once.
	 */
	@Configuration(proxyBeanMethods = false)
	public static class InstantRetries {

		@Bean
		RetryRuntime virtualRetryRuntime() {
			return new VirtualTime().runtime(new SplittableRandom(1));
		}

	}

}
