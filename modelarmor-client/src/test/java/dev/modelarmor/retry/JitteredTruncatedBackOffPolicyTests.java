package dev.modelarmor.retry;

import java.net.ConnectException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.function.Supplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.retry.backoff.BackOffInterruptedException;
import org.springframework.retry.support.RetryTemplate;
import org.springframework.web.client.ResourceAccessException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.catchThrowable;

class JitteredTruncatedBackOffPolicyTests {

	private static final Duration DEADLINE = RetrySettings.DEFAULTS.deadline();

	private static final BackoffSchedule NO_JITTER = new BackoffSchedule(Duration.ofSeconds(1), Duration.ZERO,
			Duration.ofSeconds(32));

	private final VirtualTime time = new VirtualTime();

	private final Instant start = this.time.instant();

	@AfterEach
	void clearInterruptFlag() {
		Thread.interrupted();
	}

	@ParameterizedTest
	@ValueSource(longs = { 0, 1, 42, 20260101, -7 })
	void retriesThreeUnavailableAnswersAndReturnsTheResult(long seed) {
		ScriptedCall call = ScriptedCall.failingThenSucceeding(this.time, List.of(unavailable(), unavailable(),
				unavailable()));
		String result = retrying(RetrySettings.DEFAULTS, seed).execute(call);
		assertThat(result).isEqualTo(ScriptedCall.RESULT);
		assertThat(call.attempts()).isEqualTo(4);
		List<Duration> sleeps = this.time.sleeps();
		assertThat(sleeps).hasSize(3);
		assertThat(sleeps.get(0)).isBetween(Duration.ofSeconds(1), Duration.ofSeconds(2));
		assertThat(sleeps.get(1)).isBetween(Duration.ofSeconds(2), Duration.ofSeconds(3));
		assertThat(sleeps.get(2)).isBetween(Duration.ofSeconds(4), Duration.ofSeconds(5));
		assertThat(sleeps).isEqualTo(scheduledWaits(BackoffSchedule.GOOGLE_DEFAULT, seed, 3));
	}

	@Test
	void withoutJitterTheWaitsDoubleFromOneSecondUpToTheCap() {
		RetrySettings settings = new RetrySettings(NO_JITTER, Duration.ofSeconds(300), true, true);
		ScriptedCall call = ScriptedCall.alwaysFailing(this.time, unavailable());
		Throwable thrown = catchThrowable(() -> retrying(settings, 0).execute(call));
		assertThat(thrown).isSameAs(call.lastThrown());
		List<Duration> expected = new ArrayList<>(seconds(1, 2, 4, 8, 16));
		// 31 s so far; 32 s waits while they end by 300 s: 63, 95, ..., 287
		expected.addAll(Collections.nCopies(8, Duration.ofSeconds(32)));
		assertThat(this.time.sleeps()).isEqualTo(expected);
		assertThat(call.attempts()).isEqualTo(14);
	}

	@ParameterizedTest
	@ValueSource(longs = { 0, 1, 2, 3, 42, 99, 12345, 20260101 })
	void stopsAtOnceWhenTheNextWaitWouldEndPastTheDeadline(long seed) {
		ScriptedCall call = ScriptedCall.alwaysFailing(this.time, unavailable());
		Throwable thrown = catchThrowable(() -> retrying(RetrySettings.DEFAULTS, seed).execute(call));

		assertThat(thrown).isInstanceOf(TestHttpFailure.class).isSameAs(call.lastThrown());
		List<Duration> sleeps = this.time.sleeps();
		assertThat(this.time.totalSlept()).isLessThanOrEqualTo(DEADLINE);
		assertThat(Duration.between(this.start, this.time.instant())).isLessThanOrEqualTo(DEADLINE);
		// the sleeps are the schedule's, and the one after them would have ended past the deadline
		List<Duration> schedule = scheduledWaits(BackoffSchedule.GOOGLE_DEFAULT, seed, sleeps.size() + 1);
		assertThat(sleeps).isEqualTo(schedule.subList(0, sleeps.size()));
		assertThat(this.time.totalSlept().plus(schedule.get(sleeps.size()))).isGreaterThan(DEADLINE);
		// 1-2, 2-3, 4-5, 8-9, 16-17 s: 31-36 s; a 32 s wait more would end at 63-68 s
		assertThat(sleeps).hasSize(5);
		assertThat(call.attempts()).isEqualTo(6);
	}

	@ParameterizedTest
	@ValueSource(longs = { 300, 700, 2_500, 9_000 })
	void slowAttemptsCountAgainstTheDeadline(long attemptMillis) {
		Duration attemptTime = Duration.ofMillis(attemptMillis);
		ScriptedCall call = ScriptedCall.alwaysFailing(this.time, unavailable()).takingPerAttempt(attemptTime);
		Throwable thrown = catchThrowable(() -> retrying(RetrySettings.DEFAULTS, attemptMillis).execute(call));

		assertThat(thrown).isSameAs(call.lastThrown());
		assertThat(call.attemptStarts()).allSatisfy((attemptStart) -> assertThat(Duration.between(this.start,
				attemptStart)).isLessThanOrEqualTo(DEADLINE));
		// the time spent before the last attempt: every sleep ended by the deadline
		Duration beforeLastAttempt = this.time.totalSlept().plus(attemptTime.multipliedBy(call.attempts() - 1));
		assertThat(beforeLastAttempt).isLessThanOrEqualTo(DEADLINE);
		assertThat(this.time.sleeps()).hasSize(call.attempts() - 1);
		List<Duration> schedule = scheduledWaits(BackoffSchedule.GOOGLE_DEFAULT, attemptMillis, call.attempts());
		Duration afterLastAttempt = beforeLastAttempt.plus(attemptTime);
		assertThat(afterLastAttempt.plus(schedule.get(call.attempts() - 1))).isGreaterThan(DEADLINE);
	}

	@Test
	void attemptThatRunsPastTheDeadlineIsNotRetried() {
		ScriptedCall call = ScriptedCall.alwaysFailing(this.time, unavailable())
			.takingPerAttempt(DEADLINE.plusMillis(1));
		Throwable thrown = catchThrowable(() -> retrying(RetrySettings.DEFAULTS, 0).execute(call));
		assertThat(thrown).isSameAs(call.lastThrown());
		assertThat(call.attempts()).isEqualTo(1);
		assertThat(this.time.sleeps()).isEmpty();
	}

	@Test
	void attemptLeavingLessThanTheNextWaitIsNotRetried() {
		ScriptedCall call = ScriptedCall.alwaysFailing(this.time, unavailable())
			.takingPerAttempt(Duration.ofMillis(59_500));
		Throwable thrown = catchThrowable(() -> retrying(RetrySettings.DEFAULTS, 0).execute(call));
		assertThat(thrown).isSameAs(call.lastThrown());
		assertThat(call.attempts()).isEqualTo(1);
		assertThat(this.time.sleeps()).isEmpty();
	}

	@Test
	void waitEndingExactlyAtTheDeadlineIsSlept() {
		RetrySettings settings = new RetrySettings(NO_JITTER, DEADLINE, true, true);
		ScriptedCall call = ScriptedCall.failingThenSucceeding(this.time, List.of(unavailable()))
			.takingPerAttempt(Duration.ofSeconds(59));
		assertThat(retrying(settings, 0).execute(call)).isEqualTo(ScriptedCall.RESULT);
		assertThat(this.time.sleeps()).containsExactly(Duration.ofSeconds(1));
	}

	@Test
	void notFoundIsNotRetried() {
		ScriptedCall call = ScriptedCall.alwaysFailing(this.time, () -> TestHttpFailure.status(404));
		Throwable thrown = catchThrowable(() -> retrying(RetrySettings.DEFAULTS, 0).execute(call));
		assertThat(thrown).isSameAs(call.lastThrown());
		assertThat(call.attempts()).isEqualTo(1);
		assertThat(this.time.sleeps()).isEmpty();
	}

	@Test
	void nonRetryableFailureAfterARetryableOneEndsRetrying() {
		ScriptedCall call = ScriptedCall.failingThenSucceeding(this.time,
				List.of(unavailable(), () -> TestHttpFailure.status(400)));
		Throwable thrown = catchThrowable(() -> retrying(RetrySettings.DEFAULTS, 0).execute(call));
		assertThat(thrown).isSameAs(call.lastThrown());
		assertThat(((HttpFailure) thrown).statusCode()).isEqualTo(400);
		assertThat(call.attempts()).isEqualTo(2);
		assertThat(this.time.sleeps()).hasSize(1);
	}

	@Test
	void ioFailureIsRetried() {
		ScriptedCall call = ScriptedCall.failingThenSucceeding(this.time,
				List.of(() -> new ResourceAccessException("I/O error", new ConnectException("refused"))));
		assertThat(retrying(RetrySettings.DEFAULTS, 0).execute(call)).isEqualTo(ScriptedCall.RESULT);
		assertThat(call.attempts()).isEqualTo(2);
		assertThat(this.time.sleeps()).hasSize(1);
	}

	@Test
	void tooManyRequestsIsRetriedByDefault() {
		ScriptedCall call = ScriptedCall.failingThenSucceeding(this.time, List.of(() -> TestHttpFailure.status(429)));
		assertThat(retrying(RetrySettings.DEFAULTS, 0).execute(call)).isEqualTo(ScriptedCall.RESULT);
		assertThat(call.attempts()).isEqualTo(2);
		assertThat(this.time.sleeps()).hasSize(1);
	}

	@Test
	void tooManyRequestsIsNotRetriedWhenDisabled() {
		RetrySettings settings = new RetrySettings(BackoffSchedule.GOOGLE_DEFAULT, DEADLINE, false, true);
		ScriptedCall call = ScriptedCall.failingThenSucceeding(this.time, List.of(() -> TestHttpFailure.status(429)));
		Throwable thrown = catchThrowable(() -> retrying(settings, 0).execute(call));
		assertThat(thrown).isSameAs(call.lastThrown());
		assertThat(call.attempts()).isEqualTo(1);
		assertThat(this.time.sleeps()).isEmpty();
	}

	@Test
	void hintLongerThanTheComputedWaitRaisesIt() {
		RetrySettings settings = new RetrySettings(NO_JITTER, DEADLINE, true, true);
		ScriptedCall call = ScriptedCall.failingThenSucceeding(this.time,
				List.of(unavailableFor(Duration.ofSeconds(10)), unavailableFor(Duration.ofMillis(2_001))));
		assertThat(retrying(settings, 0).execute(call)).isEqualTo(ScriptedCall.RESULT);
		assertThat(this.time.sleeps()).containsExactly(Duration.ofSeconds(10), Duration.ofMillis(2_001));
	}

	@Test
	void hintShorterThanTheComputedWaitDoesNotLowerIt() {
		RetrySettings settings = new RetrySettings(NO_JITTER, DEADLINE, true, true);
		ScriptedCall call = ScriptedCall.failingThenSucceeding(this.time,
				List.of(unavailableFor(Duration.ofMillis(500)), unavailableFor(Duration.ZERO)));
		assertThat(retrying(settings, 0).execute(call)).isEqualTo(ScriptedCall.RESULT);
		assertThat(this.time.sleeps()).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2));
	}

	@Test
	void hintThatDoesNotFitBeforeTheDeadlineEndsRetryingAtOnce() {
		ScriptedCall call = ScriptedCall.alwaysFailing(this.time, unavailableFor(DEADLINE.plusMillis(1)));
		Throwable thrown = catchThrowable(() -> retrying(RetrySettings.DEFAULTS, 0).execute(call));
		assertThat(thrown).isSameAs(call.lastThrown());
		assertThat(call.attempts()).isEqualTo(1);
		assertThat(this.time.sleeps()).isEmpty();
		assertThat(this.time.instant()).isEqualTo(this.start);
	}

	@Test
	void hintThatDoesNotFitAfterEarlierRetriesEndsRetryingAtOnce() {
		RetrySettings settings = new RetrySettings(NO_JITTER, DEADLINE, true, true);
		// 1 s slept, so a 59.001 s hint would end 1 ms past the deadline
		ScriptedCall call = ScriptedCall.failingThenSucceeding(this.time,
				List.of(unavailable(), unavailableFor(Duration.ofMillis(59_001))));
		Throwable thrown = catchThrowable(() -> retrying(settings, 0).execute(call));
		assertThat(thrown).isSameAs(call.lastThrown());
		assertThat(call.attempts()).isEqualTo(2);
		assertThat(this.time.sleeps()).containsExactly(Duration.ofSeconds(1));
	}

	@Test
	void hintEndingExactlyAtTheDeadlineIsSlept() {
		ScriptedCall call = ScriptedCall.failingThenSucceeding(this.time, List.of(unavailableFor(DEADLINE)));
		assertThat(retrying(RetrySettings.DEFAULTS, 0).execute(call)).isEqualTo(ScriptedCall.RESULT);
		assertThat(this.time.sleeps()).containsExactly(DEADLINE);
	}

	@Test
	void hintsAreIgnoredWhenNotHonoured() {
		RetrySettings settings = new RetrySettings(NO_JITTER, DEADLINE, true, false);
		ScriptedCall call = ScriptedCall.failingThenSucceeding(this.time,
				List.of(unavailableFor(Duration.ofSeconds(10)), unavailableFor(DEADLINE.plusSeconds(1))));
		assertThat(retrying(settings, 0).execute(call)).isEqualTo(ScriptedCall.RESULT);
		assertThat(this.time.sleeps()).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2));
	}

	@Test
	void currentDeadlineIsVisibleToEachAttemptAndShrinks() {
		RetrySettings settings = new RetrySettings(NO_JITTER, DEADLINE, true, true);
		ScriptedCall call = ScriptedCall.failingThenSucceeding(this.time, List.of(unavailable(), unavailable()))
			.takingPerAttempt(Duration.ofMillis(100));
		retrying(settings, 0).execute(call);
		assertThat(call.remainingAtStart()).containsExactly(Optional.of(Duration.ofSeconds(60)),
				Optional.of(Duration.ofMillis(58_900)), Optional.of(Duration.ofMillis(56_800)));
	}

	@Test
	void aCallThatFailsAtOnceSawTheWholeDeadline() {
		ScriptedCall call = ScriptedCall.alwaysFailing(this.time, () -> TestHttpFailure.status(400));
		catchThrowable(() -> retrying(RetrySettings.DEFAULTS, 0).execute(call));
		assertThat(call.remainingAtStart()).containsExactly(Optional.of(DEADLINE));
	}

	@Test
	void eachCallGetsItsOwnDeadline() {
		RetryTemplate template = retrying(RetrySettings.DEFAULTS, 0);
		ScriptedCall first = ScriptedCall.alwaysFailing(this.time, unavailable());
		catchThrowable(() -> template.execute(first));
		ScriptedCall second = ScriptedCall.failingThenSucceeding(this.time, List.of(unavailable()));
		assertThat(template.execute(second)).isEqualTo(ScriptedCall.RESULT);
		assertThat(second.remainingAtStart().get(0)).contains(DEADLINE);
		assertThat(second.attempts()).isEqualTo(2);
	}

	@Test
	void singleAttemptTemplateDoesNotRetryAnUnavailableAnswer() {
		ScriptedCall call = ScriptedCall.alwaysFailing(this.time, unavailable());
		RetryTemplate template = ModelArmorRetryTemplates.singleAttempt(RetrySettings.DEFAULTS,
				this.time.runtime(TestRandoms.unused()));
		Throwable thrown = catchThrowable(() -> template.execute(call));
		assertThat(thrown).isSameAs(call.lastThrown());
		assertThat(call.attempts()).isEqualTo(1);
		assertThat(this.time.sleeps()).isEmpty();
		assertThat(call.remainingAtStart()).containsExactly(Optional.of(DEADLINE));
	}

	@Test
	void interruptedWaitFailsTheCallAndKeepsTheInterrupt() {
		RetryRuntime interrupted = new RetryRuntime(this.time, (millis) -> {
			throw new InterruptedException("stop");
		}, new SplittableRandom(0));
		RetryTemplate template = ModelArmorRetryTemplates.retrying(RetrySettings.DEFAULTS, interrupted);
		ScriptedCall call = ScriptedCall.alwaysFailing(this.time, unavailable());
		try {
			assertThatExceptionOfType(BackOffInterruptedException.class).isThrownBy(() -> template.execute(call))
				.withCauseInstanceOf(InterruptedException.class);
			assertThat(Thread.currentThread().isInterrupted()).isTrue();
			assertThat(call.attempts()).isEqualTo(1);
		}
		finally {
			Thread.interrupted();
		}
		assertThat(Thread.currentThread().isInterrupted()).isFalse();
	}

	private RetryTemplate retrying(RetrySettings settings, long seed) {
		return ModelArmorRetryTemplates.retrying(settings, this.time.runtime(new SplittableRandom(seed)));
	}

	/** The first waits the schedule gives for a random source seeded like the template's. */
	private static List<Duration> scheduledWaits(BackoffSchedule schedule, long seed, int count) {
		SplittableRandom random = new SplittableRandom(seed);
		List<Duration> waits = new ArrayList<>();
		for (int n = 0; n < count; n++) {
			waits.add(schedule.delayBeforeRetry(n, random));
		}
		return waits;
	}

	private static Supplier<RuntimeException> unavailable() {
		return () -> TestHttpFailure.status(503);
	}

	private static Supplier<RuntimeException> unavailableFor(Duration retryAfter) {
		return () -> TestHttpFailure.status(503, retryAfter);
	}

	private static List<Duration> seconds(long... values) {
		List<Duration> durations = new ArrayList<>();
		for (long value : values) {
			durations.add(Duration.ofSeconds(value));
		}
		return durations;
	}

}
