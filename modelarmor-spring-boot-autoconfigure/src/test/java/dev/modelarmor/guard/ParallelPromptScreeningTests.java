package dev.modelarmor.guard;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The pool that screens the prompts of side-effect-free methods is bounded and has no queue: beyond its
 * threads, and once it is closed, a prompt is screened on the caller's thread before the body runs.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ParallelPromptScreeningTests {

	@Test
	void screensOnItsOwnThreads() {
		try (ParallelPromptScreening parallel = new ParallelPromptScreening()) {
			AtomicReference<Thread> thread = new AtomicReference<>();
			ScreeningDecision decision = ParallelPromptScreening.await(parallel.start(() -> {
				thread.set(Thread.currentThread());
				return ScreeningDecision.PASS;
			}));
			assertThat(decision).isSameAs(ScreeningDecision.PASS);
			assertThat(thread.get().getName()).startsWith("modelarmor-prompt-screening-")
				.isNotEqualTo(Thread.currentThread().getName());
			assertThat(thread.get().isDaemon()).as("never holds the JVM open").isTrue();
		}
	}

	@Test
	void whenEveryThreadIsBusyThePromptIsScreenedOnTheCallersThreadNeverQueued() throws InterruptedException {
		CountDownLatch release = new CountDownLatch(1);
		try (ParallelPromptScreening parallel = new ParallelPromptScreening()) {
			List<CompletableFuture<ScreeningDecision>> busy = new ArrayList<>();
			for (int i = 0; i < ParallelPromptScreening.MAX_THREADS; i++) {
				busy.add(parallel.start(() -> {
					awaitQuietly(release);
					return ScreeningDecision.PASS;
				}));
			}
			AtomicReference<String> thread = new AtomicReference<>();
			CompletableFuture<ScreeningDecision> overflow = parallel.start(() -> {
				thread.set(Thread.currentThread().getName());
				return ScreeningDecision.PASS;
			});
			assertThat(overflow).isCompleted();
			assertThat(thread.get()).isEqualTo(Thread.currentThread().getName());
			release.countDown();
			busy.forEach((decision) -> assertThat(ParallelPromptScreening.await(decision)).isSameAs(ScreeningDecision.PASS));
		}
	}

	@Test
	void onceClosedThePromptIsScreenedOnTheCallersThread() {
		ParallelPromptScreening parallel = new ParallelPromptScreening();
		parallel.close();
		AtomicReference<String> thread = new AtomicReference<>();
		ParallelPromptScreening.await(parallel.start(() -> {
			thread.set(Thread.currentThread().getName());
			return ScreeningDecision.PASS;
		}));
		assertThat(thread.get()).isEqualTo(Thread.currentThread().getName());
	}

	@Test
	void whatTheScreeningThrowsIsThrownUnwrappedFromEitherThread() {
		try (ParallelPromptScreening parallel = new ParallelPromptScreening()) {
			assertThatIllegalStateException()
				.isThrownBy(() -> ParallelPromptScreening.await(parallel.start(() -> {
					throw new IllegalStateException("mock returned null");
				})))
				.withMessage("mock returned null");
		}
		ParallelPromptScreening closed = new ParallelPromptScreening();
		closed.close();
		assertThatIllegalStateException().isThrownBy(() -> ParallelPromptScreening.await(closed.start(() -> {
			throw new IllegalStateException("mock returned null");
		}))).withMessage("mock returned null");
	}

	@Test
	void anErrorOfTheScreeningIsThrownUnwrapped() {
		try (ParallelPromptScreening parallel = new ParallelPromptScreening()) {
			assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> ParallelPromptScreening.await(parallel.start(() -> {
				throw new AssertionError("broken");
			}))).withMessage("broken");
		}
	}

	private static void awaitQuietly(CountDownLatch latch) {
		try {
			latch.await(20, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
