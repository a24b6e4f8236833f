package dev.modelarmor.guard;

import java.nio.file.Path;
import java.time.Duration;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.modelarmor.auth.StallingTokenEndpoint;
import dev.modelarmor.auth.TestServiceAccount;
import dev.modelarmor.screening.ModelArmorNotScreenedException;
import dev.modelarmor.screening.Phase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static dev.modelarmor.guard.ModelArmorStubs.promptRequests;
import static dev.modelarmor.guard.RecordService.ANSWER;
import static dev.modelarmor.guard.RecordService.QUESTION;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A guarded call whose access token never comes: the token endpoint accepts the connection and never
 * answers. Screening cannot happen, so fail-closed blocks the call and fail-open lets it through with
 * its WARN line; either way within the 1 s retry deadline, not after google-auth's own 87 s.
 */
@ExtendWith(OutputCaptureExtension.class)
class TokenStallGuardTests {

	static final Duration DEADLINE = Duration.ofSeconds(1);

	/**
	 * Loose: the first call of a JVM spends up to a few seconds on a loaded machine initialising Jackson and
	 * the HTTP client before its deadline starts. The timing itself is measured by TokenEndpointStallTests;
	 * this bound fails only a wait that google-auth's own 20 s timeout ends.
	 */
	static final Duration SLACK = Duration.ofSeconds(8);

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	@TempDir
	Path directory;

	private ApplicationContextRunner runner(StallingTokenEndpoint stalling) throws Exception {
		Path key = TestServiceAccount.create(stalling.tokenUri()).writeTo(this.directory);
		return ModelArmorStubs.runner(modelArmor)
			.withUserConfiguration(RecordService.Beans.class)
			.withPropertyValues("modelarmor.credentials.enabled=true", "modelarmor.credentials.location=file:" + key,
					"modelarmor.retry.deadline=" + DEADLINE.toMillis() + "ms");
	}

	@Test
	void failClosedBlocksThePromptAtTheDeadline() throws Exception {
		try (StallingTokenEndpoint stalling = StallingTokenEndpoint.start()) {
			runner(stalling).run((context) -> {
				long started = System.nanoTime();
				assertThatExceptionOfType(ModelArmorNotScreenedException.class)
					.isThrownBy(() -> context.getBean(RecordService.class).summarise(QUESTION))
					.satisfies((ex) -> {
						assertThat(ex.phase()).isEqualTo(Phase.PROMPT);
						assertThat(ex.getMessage()).contains("token unavailable (TimeoutException)")
							.doesNotContain(QUESTION);
					});
				assertThat(Duration.ofNanos(System.nanoTime() - started)).isBetween(DEADLINE.minusMillis(100),
						DEADLINE.plus(SLACK));
				assertThat(context.getBean(BodyRuns.class).count()).isZero();
			});
		}
		assertThat(promptRequests(modelArmor)).isEmpty();
	}

	@Test
	void failOpenLetsTheCallThroughAtTheDeadlineWithItsWarnLine(CapturedOutput output) throws Exception {
		try (StallingTokenEndpoint stalling = StallingTokenEndpoint.start()) {
			runner(stalling).withPropertyValues("modelarmor.screening.fail-open=true").run((context) -> {
				long started = System.nanoTime();
				assertThat(context.getBean(RecordService.class).summarise(QUESTION)).isEqualTo(ANSWER);
				// Prompt and answer: two screenings, each ends at its own deadline.
				assertThat(Duration.ofNanos(System.nanoTime() - started))
					.isBetween(DEADLINE.multipliedBy(2).minusMillis(100), DEADLINE.multipliedBy(2).plus(SLACK));
			});
		}
		assertThat(output).contains("letting it through (fail-open)")
			.contains("status=token_unavailable attempts=1 reason=\"token unavailable (TimeoutException), the next retry would have ended past the call's deadline\"");
		assertThat(promptRequests(modelArmor)).isEmpty();
	}

}
