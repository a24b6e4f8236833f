package dev.modelarmor.screening;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import dev.modelarmor.client.SanitizationResult;
import dev.modelarmor.screening.LongTextScreeningThreadTests.FunctionOperations;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The one implementation of parallel prompt screening, {@link ModelArmorScreening#screenAsync}, which the
 * guard's side-effect-free methods and the Spring AI advisor's parallel mode use: on the executor's threads,
 * which are bounded and have no queue; beyond them, and once the executor is closed, a prompt is screened
 * on the caller's thread before the body runs.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ParallelPromptScreeningTests {

	static final int MAX_THREADS = 4;

	@Test
	void screensOnItsOwnThreads() {
		AtomicReference<Thread> thread = new AtomicReference<>();
		try (Parallel parallel = screening((text) -> {
			thread.set(Thread.currentThread());
			return WindowMergeTests.noMatch();
		})) {
			ScreeningDecision decision = ModelArmorScreening.await(parallel.screening().screenAsync(prompt()));
			assertThat(decision).isSameAs(ScreeningDecision.PASS);
			assertThat(thread.get().getName()).startsWith("modelarmor-prompt-screening-")
				.isNotEqualTo(Thread.currentThread().getName());
			assertThat(thread.get().isDaemon()).as("never holds the JVM open").isTrue();
		}
	}

	@Test
	void whenEveryThreadIsBusyThePromptIsScreenedOnTheCallersThreadNeverQueued() {
		CountDownLatch release = new CountDownLatch(1);
		AtomicReference<String> thread = new AtomicReference<>();
		try (Parallel parallel = screening((text) -> {
			if (text.equals("busy")) {
				awaitQuietly(release);
			}
			else {
				thread.set(Thread.currentThread().getName());
			}
			return WindowMergeTests.noMatch();
		})) {
			List<CompletableFuture<ScreeningDecision>> busy = new ArrayList<>();
			for (int i = 0; i < MAX_THREADS; i++) {
				busy.add(parallel.screening().screenAsync(ScreeningRequest.prompt("test", "busy")));
			}
			CompletableFuture<ScreeningDecision> overflow = parallel.screening().screenAsync(prompt());
			assertThat(overflow).isCompleted();
			assertThat(thread.get()).isEqualTo(Thread.currentThread().getName());
			release.countDown();
			busy.forEach((decision) -> assertThat(ModelArmorScreening.await(decision)).isSameAs(ScreeningDecision.PASS));
		}
	}

	@Test
	void onceClosedThePromptIsScreenedOnTheCallersThread() {
		AtomicReference<String> thread = new AtomicReference<>();
		Parallel parallel = screening((text) -> {
			thread.set(Thread.currentThread().getName());
			return WindowMergeTests.noMatch();
		});
		parallel.close();
		assertThat(ModelArmorScreening.await(parallel.screening().screenAsync(prompt()))).isSameAs(ScreeningDecision.PASS);
		assertThat(thread.get()).isEqualTo(Thread.currentThread().getName());
	}

	@Test
	void whatTheScreeningThrowsIsThrownUnwrappedFromEitherThread() {
		Function<String, SanitizationResult> failing = (text) -> {
			throw new IllegalStateException("the client returned null");
		};
		try (Parallel parallel = screening(failing)) {
			assertThatIllegalStateException()
				.isThrownBy(() -> ModelArmorScreening.await(parallel.screening().screenAsync(prompt())))
				.withMessage("the client returned null");
		}
		Parallel closed = screening(failing);
		closed.close();
		assertThatIllegalStateException().isThrownBy(() -> ModelArmorScreening.await(closed.screening().screenAsync(prompt())))
			.withMessage("the client returned null");
	}

	@Test
	void anErrorOfTheScreeningIsThrownUnwrapped() {
		try (Parallel parallel = screening((text) -> {
			throw new AssertionError("broken");
		})) {
			assertThatExceptionOfType(AssertionError.class)
				.isThrownBy(() -> ModelArmorScreening.await(parallel.screening().screenAsync(prompt())))
				.withMessage("broken");
		}
	}

	/** A screening on an executor of {@value #MAX_THREADS} threads and no queue, which closing closes. */
	private static Parallel screening(Function<String, SanitizationResult> calls) {
		ModelArmorTaskExecutor executor = ModelArmorTaskExecutor.platformThreads("prompt-screening",
				MAX_THREADS, 0, null);
		return new Parallel(ModelArmorScreening.builder(new FunctionOperations(calls)).executor(executor).build(),
				executor);
	}

	private static ScreeningRequest prompt() {
		return ScreeningRequest.prompt("ChatService.chat(String)", "What is the weather?");
	}

	private static void awaitQuietly(CountDownLatch latch) {
		try {
			latch.await(20, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private record Parallel(ModelArmorScreening screening, ModelArmorTaskExecutor executor) implements AutoCloseable {

		@Override
		public void close() {
			this.executor.close();
		}

	}

}
