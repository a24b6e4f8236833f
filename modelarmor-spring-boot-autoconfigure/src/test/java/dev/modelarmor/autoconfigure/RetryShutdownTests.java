package dev.modelarmor.autoconfigure;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.modelarmor.client.ModelArmorApiException;
import dev.modelarmor.client.ModelArmorException;
import dev.modelarmor.client.ModelArmorOperations;
import dev.modelarmor.retry.CallOutcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Closing the application context ends the waits of calls that wait to retry at once, instead of
 * holding shutdown for up to max-backoff; the call ends {@code interrupted}, and so does its one WARN
 * line. Real time, loose bounds: the first wait here is 30 s.
 */
@ExtendWith(OutputCaptureExtension.class)
class RetryShutdownTests {

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ModelArmorAutoConfiguration.class))
		.withPropertyValues("modelarmor.project-id=p", "modelarmor.template-id=t", "modelarmor.credentials.enabled=false",
				"modelarmor.retry.initial-backoff=30s", "modelarmor.retry.jitter=0", "modelarmor.retry.max-backoff=32s",
				"modelarmor.retry.deadline=60s");

	@Test
	void closingTheContextEndsAWaitingRetryAtOnce(CapturedOutput output) {
		modelArmor.stubFor(post(urlPathMatching(".*:sanitizeUserPrompt")).willReturn(aResponse().withStatus(503)));
		this.runner.withPropertyValues("modelarmor.endpoint=" + modelArmor.baseUrl()).run((context) -> {
			ModelArmorOperations operations = context.getBean(ModelArmorOperations.class);
			CompletableFuture<Throwable> call = CompletableFuture.supplyAsync(() -> {
				try {
					operations.sanitizeUserPrompt("hello");
					return null;
				}
				catch (RuntimeException ex) {
					return ex;
				}
			});
			awaitFirstAttempt();

			long closing = System.nanoTime();
			context.close();
			Throwable ended = call.get(10, TimeUnit.SECONDS);

			assertThat(Duration.ofNanos(System.nanoTime() - closing)).as("far less than the 30 s wait")
				.isLessThan(Duration.ofSeconds(10));
			assertThat(ended).isInstanceOfSatisfying(ModelArmorException.class, (ex) -> {
				assertThat(ex.outcome()).contains(CallOutcome.INTERRUPTED);
				assertThat(ex.attempts()).isEqualTo(1);
				assertThat(ex.getMessage()).contains("shutting down");
				assertThat(ex.getCause()).isInstanceOf(ModelArmorApiException.class);
				assertThat(ex.callId()).isPresent();
			});
			// a call of the template itself: no WARN line of the retries (the screening's is the call's one)
			assertThat(output.getOut().lines().filter((line) -> line.contains(" WARN ") && line.contains("Model Armor call")))
				.isEmpty();
			assertThat(modelArmor.getAllServeEvents()).hasSize(1);
		});
	}

	private static void awaitFirstAttempt() throws InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (modelArmor.getAllServeEvents().isEmpty() && System.nanoTime() < deadline) {
			Thread.sleep(10);
		}
		Thread.sleep(200); // the call is now in its 30 s wait, or about to be: either way close must end it
	}

}
