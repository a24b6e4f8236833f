package dev.modelarmor.observation;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.modelarmor.client.CallResult;
import dev.modelarmor.client.ModelArmorCallObserver;
import dev.modelarmor.observation.internal.MicrometerCallObserver;
import dev.modelarmor.retry.CallOutcome;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A call's observation scope lives in a thread-local of the thread that started the call (shared by every
 * registry of the JVM): a call that ends on another thread must not leave it there, or the caller's later work
 * nests under a call that has ended, and a later test on that thread finds an observation in scope.
 */
class ObservationScopeThreadTests {

	private final TestObservationRegistry observations = TestObservationRegistry.create();

	private final MicrometerCallObserver observer = new MicrometerCallObserver(null, this.observations);

	@Test
	void aCallEndingOnAnotherThreadLeavesNoScopeOnTheStartingThread() throws Exception {
		ModelArmorCallObserver.Call call = this.observer.start("sanitize_user_prompt", "t");
		assertThat(this.observations.getCurrentObservation()).as("in scope while the call runs here").isNotNull();

		call.leftTheStartingThread();
		assertThat(this.observations.getCurrentObservation()).as("taken back when the call goes on elsewhere").isNull();

		CompletableFuture.runAsync(() -> call.finished(
				new CallResult("sanitize_user_prompt", CallOutcome.SUCCESS, "200", 1, Duration.ZERO)))
			.get(10, TimeUnit.SECONDS);
		assertThat(this.observations.getCurrentObservation()).isNull();
		TestObservationRegistryAssert.assertThat(this.observations).hasSingleObservationThat().hasBeenStopped();
	}

	@Test
	void aCallEndingOnItsOwnThreadClosesItsScopeOnce() {
		ModelArmorCallObserver.Call call = this.observer.start("sanitize_user_prompt", "t");
		call.finished(new CallResult("sanitize_user_prompt", CallOutcome.SUCCESS, "200", 1, Duration.ZERO));
		call.leftTheStartingThread();
		assertThat(this.observations.getCurrentObservation()).isNull();
	}

}
