package dev.modelarmor.client;

import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.modelarmor.retry.BackoffSchedule;
import dev.modelarmor.retry.CallOutcome;
import dev.modelarmor.retry.ModelArmorRetryTemplates;
import dev.modelarmor.retry.RetrySettings;
import dev.modelarmor.retry.VirtualTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.retry.RetryCallback;
import org.springframework.retry.RetryContext;
import org.springframework.retry.RetryListener;
import org.springframework.retry.support.RetryTemplate;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The exception a failed call ends with is made once, with the call's outcome; the exceptions of its
 * attempts, which retry listeners see while the call goes on, are never changed afterwards.
 */
class FinalExceptionTests {

	private static final RetrySettings TEN_SECONDS = new RetrySettings(
			new BackoffSchedule(Duration.ofSeconds(1), Duration.ZERO, Duration.ofSeconds(32)), Duration.ofSeconds(10),
			true, true);

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	private final VirtualTime time = new VirtualTime();

	private final List<Throwable> seenByListener = new CopyOnWriteArrayList<>();

	@Test
	void aCallOutOfTimeEndsWithACopyOfItsLastFailureCarryingTheOutcome() {
		modelArmor.stubFor(post(urlPathEqualTo(ModelArmorTemplateTests.PROMPT_PATH))
			.willReturn(aResponse().withStatus(503).withBody("{\"error\": {\"code\": 503, \"status\": \"UNAVAILABLE\"}}")));

		ModelArmorApiException thrown = catchThrowableOfType(ModelArmorApiException.class,
				() -> template().sanitizeUserPrompt("hello"));

		// waits of 1, 2 and 4 s fit in 10 s; the next, 8 s, would not
		assertThat(this.seenByListener).hasSize(4)
			.allSatisfy((attempt) -> assertThat(((ModelArmorException) attempt).outcome()).isEmpty());
		ModelArmorApiException last = (ModelArmorApiException) this.seenByListener.get(3);
		assertThat(thrown).isNotSameAs(last).hasMessage(last.getMessage()).hasCause(last.getCause());
		assertThat(thrown.outcome()).contains(CallOutcome.DEADLINE_EXCEEDED);
		assertThat(thrown.attempts()).isEqualTo(4).isEqualTo(last.attempts());
		assertThat(thrown.statusCode()).isEqualTo(503);
		assertThat(thrown.status()).isEqualTo("UNAVAILABLE");
		assertThat(thrown.earlierAttemptOutcomeUnknown()).isEqualTo(last.earlierAttemptOutcomeUnknown());
		assertThat(thrown.getStackTrace()).isEqualTo(last.getStackTrace());
	}

	@Test
	void aFailureNotWorthRetryingEndsAsNonRetryable() {
		modelArmor.stubFor(post(urlPathEqualTo(ModelArmorTemplateTests.PROMPT_PATH))
			.willReturn(aResponse().withStatus(400).withBody("{\"error\": {\"code\": 400, \"message\": \"bad\"}}")));

		ModelArmorApiException thrown = catchThrowableOfType(ModelArmorApiException.class,
				() -> template().sanitizeUserPrompt("hello"));

		assertThat(this.seenByListener).singleElement()
			.satisfies((attempt) -> assertThat(((ModelArmorException) attempt).outcome()).isEmpty());
		assertThat(thrown.outcome()).contains(CallOutcome.NON_RETRYABLE);
		assertThat(thrown.attempts()).isEqualTo(1);
		assertThat(thrown.statusCode()).isEqualTo(400);
		assertThat(thrown).hasMessageContaining("bad");
	}

	private ModelArmorTemplate template() {
		RetryTemplate retryTemplate = ModelArmorRetryTemplates.retrying(TEN_SECONDS,
				this.time.runtime(new SplittableRandom(1)));
		retryTemplate.registerListener(new RetryListener() {
			@Override
			public <T, E extends Throwable> void onError(RetryContext context, RetryCallback<T, E> callback,
					Throwable throwable) {
				FinalExceptionTests.this.seenByListener.add(throwable);
			}
		});
		return ModelArmorTemplate.builder()
			.endpoint(ModelArmorEndpoint.of(modelArmor.baseUrl()))
			.retryTemplate(retryTemplate)
			.projectId("demo-project")
			.templateId("default-template")
			.build();
	}

}
