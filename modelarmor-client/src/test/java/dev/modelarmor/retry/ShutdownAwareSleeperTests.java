package dev.modelarmor.retry;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The sleeper that ends waits when the application shuts down. Bounds are loose: they only tell a
 * wait that ended on close from one that ran its course (30 s).
 */
class ShutdownAwareSleeperTests {

	@Test
	void closeEndsAWaitInProgressAtOnce() throws Exception {
		ShutdownAwareSleeper sleeper = new ShutdownAwareSleeper();
		CompletableFuture<Throwable> waiting = CompletableFuture.supplyAsync(() -> {
			try {
				sleeper.sleep(30_000);
				return null;
			}
			catch (InterruptedException ex) {
				return ex;
			}
		});
		Thread.sleep(100); // let the wait begin; the assertion below does not depend on it
		long closedAt = System.nanoTime();
		sleeper.close();

		Throwable ended = waiting.get(5, TimeUnit.SECONDS);
		assertThat(ended).isInstanceOf(ShutdownAwareSleeper.RetriesStoppedException.class);
		assertThat(Duration.ofNanos(System.nanoTime() - closedAt)).isLessThan(Duration.ofSeconds(5));
	}

	@Test
	void waitsAfterCloseEndAtOnce() {
		ShutdownAwareSleeper sleeper = new ShutdownAwareSleeper();
		sleeper.close();

		long start = System.nanoTime();
		assertThatExceptionOfType(ShutdownAwareSleeper.RetriesStoppedException.class).isThrownBy(() -> sleeper.sleep(30_000));
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
	}

	@Test
	void aShortWaitRunsItsCourseWhenNotClosed() throws InterruptedException {
		ShutdownAwareSleeper sleeper = new ShutdownAwareSleeper();
		long start = System.nanoTime();
		sleeper.sleep(20);
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(19));
	}

	@Test
	void aThreadInterruptIsAnInterruptNotAShutdown() {
		ShutdownAwareSleeper sleeper = new ShutdownAwareSleeper();
		Thread.currentThread().interrupt();
		assertThatExceptionOfType(InterruptedException.class).isThrownBy(() -> sleeper.sleep(30_000))
			.isNotInstanceOf(ShutdownAwareSleeper.RetriesStoppedException.class);
		assertThat(Thread.interrupted()).isFalse();
	}

}
