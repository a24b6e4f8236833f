package dev.modelarmor.client;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.modelarmor.client.internal.transport.AnswerDeadlines;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The watcher that ends answers whose last byte has not come by their deadline: it ends those that are
 * due, wakes early for an answer due before its plan, never ends an answer that is done, and its thread ends
 * once closed and idle. Real time with loose bounds: the machine is loaded.
 */
class AnswerDeadlinesTests {

	private final AnswerDeadlines deadlines = new AnswerDeadlines();

	@AfterEach
	void close() {
		this.deadlines.close();
	}

	@Test
	void anAnswerNotDoneByItsDeadlineIsEnded() throws Exception {
		Answer answer = new Answer(Duration.ofMillis(50));
		this.deadlines.watch(answer);

		assertThat(answer.expired.await(5, TimeUnit.SECONDS)).isTrue();
		assertThat(answer.expiries.get()).isEqualTo(1);
		assertThat(this.deadlines.watching()).isZero();
	}

	@Test
	void anAnswerDueBeforeTheWatchersPlanWakesIt() throws Exception {
		Answer late = new Answer(Duration.ofMinutes(10));
		this.deadlines.watch(late);
		await().atMost(Duration.ofSeconds(5)).until(this.deadlines::isWatching);
		Thread.sleep(100); // let the watcher plan to sleep ten minutes
		Answer soon = new Answer(Duration.ofMillis(50));
		this.deadlines.watch(soon);

		assertThat(soon.expired.await(5, TimeUnit.SECONDS)).isTrue();
		assertThat(late.expiries.get()).isZero();
	}

	@Test
	void anAnswerThatIsDoneIsNeverEnded() throws Exception {
		Answer done = new Answer(Duration.ofMillis(100));
		Answer marker = new Answer(Duration.ofMillis(300));
		this.deadlines.watch(done);
		this.deadlines.watch(marker);
		this.deadlines.done(done);

		assertThat(marker.expired.await(5, TimeUnit.SECONDS)).isTrue();
		assertThat(done.expiries.get()).isZero();
	}

	@Test
	void afterCloseTheWatcherEndsOnceTheLastAnswerIsOver() throws Exception {
		Answer answer = new Answer(Duration.ofMillis(200));
		this.deadlines.watch(answer);
		this.deadlines.close();

		assertThat(this.deadlines.isWatching()).isTrue();
		assertThat(answer.expired.await(5, TimeUnit.SECONDS)).isTrue();
		await().atMost(Duration.ofSeconds(5)).until(() -> !this.deadlines.isWatching());
	}

	@Test
	void anAnswerThatFailsToEndDoesNotStopTheWatcher() throws Exception {
		Answer failing = new Answer(Duration.ofMillis(20)) {
			@Override
			public void expire() {
				super.expire();
				throw new IllegalStateException("broken answer");
			}
		};
		Answer next = new Answer(Duration.ofMillis(300));
		this.deadlines.watch(failing);
		this.deadlines.watch(next);

		assertThat(next.expired.await(5, TimeUnit.SECONDS)).isTrue();
		assertThat(failing.expiries.get()).isEqualTo(1);
	}

	private static class Answer implements AnswerDeadlines.Watched {

		private final long deadline;

		final CountDownLatch expired = new CountDownLatch(1);

		final AtomicInteger expiries = new AtomicInteger();

		Answer(Duration in) {
			this.deadline = System.nanoTime() + in.toNanos();
		}

		@Override
		public long deadlineNanos() {
			return this.deadline;
		}

		@Override
		public void expire() {
			this.expiries.incrementAndGet();
			this.expired.countDown();
		}

	}

}
