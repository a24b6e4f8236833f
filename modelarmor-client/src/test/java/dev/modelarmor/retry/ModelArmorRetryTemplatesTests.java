package dev.modelarmor.retry;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.retry.RetryCallback;
import org.springframework.retry.RetryContext;
import org.springframework.retry.RetryListener;
import org.springframework.retry.backoff.BackOffInterruptedException;
import org.springframework.retry.backoff.NoBackOffPolicy;
import org.springframework.retry.support.RetryTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@link ModelArmorRetryTemplates#execute}: what each attempt is handed as parameters, and how the call
 * ends as a value, in virtual time.
 */
class ModelArmorRetryTemplatesTests {

	private static final BackoffSchedule NO_JITTER = new BackoffSchedule(Duration.ofSeconds(1), Duration.ZERO,
			Duration.ofSeconds(32));

	private static final RetrySettings TEN_SECONDS = new RetrySettings(NO_JITTER, Duration.ofSeconds(10), true, true);

	private final VirtualTime time = new VirtualTime();

	@Test
	void eachAttemptIsHandedItsNumberWaitDeadlineAndThePreviousFailure() {
		List<ModelArmorRetryTemplates.Attempt> seen = new ArrayList<>();
		List<Duration> remaining = new ArrayList<>();
		RuntimeException first = TestHttpFailure.status(503);
		RuntimeException second = TestHttpFailure.status(502);
		ModelArmorRetryTemplates.Retried<String> retried = ModelArmorRetryTemplates.execute(retrying(TEN_SECONDS),
				(attempt) -> {
					seen.add(attempt);
					remaining.add(attempt.deadline().remaining());
					this.time.advance(Duration.ofMillis(100));
					return switch (attempt.number()) {
						case 1 -> throw first;
						case 2 -> throw second;
						default -> "answer";
					};
				});
		assertThat(seen).extracting(ModelArmorRetryTemplates.Attempt::number).containsExactly(1, 2, 3);
		assertThat(seen).extracting(ModelArmorRetryTemplates.Attempt::backoff)
			.containsExactly(Duration.ZERO, Duration.ofSeconds(1), Duration.ofSeconds(3));
		assertThat(seen).extracting(ModelArmorRetryTemplates.Attempt::previousFailure)
			.containsExactly(null, first, second);
		assertThat(seen).allSatisfy((attempt) -> assertThat(attempt.deadline()).isSameAs(seen.get(0).deadline()));
		assertThat(remaining).containsExactly(Duration.ofSeconds(10), Duration.ofMillis(8_900),
				Duration.ofMillis(6_800));
		assertThat(retried).isEqualTo(new ModelArmorRetryTemplates.Retried<>("answer", null,
				CallOutcome.SUCCESS_AFTER_RETRY, Duration.ofSeconds(3)));
	}

	@Test
	void anAnswerAtOnceIsASuccess() {
		assertThat(ModelArmorRetryTemplates.execute(retrying(TEN_SECONDS), (attempt) -> "answer"))
			.isEqualTo(new ModelArmorRetryTemplates.Retried<>("answer", null, CallOutcome.SUCCESS, Duration.ZERO));
	}

	@Test
	void aFailureNotWorthRetryingEndsTheCallWithItAsItWasThrown() {
		RuntimeException badRequest = TestHttpFailure.status(400);
		ModelArmorRetryTemplates.Retried<String> retried = ModelArmorRetryTemplates.execute(retrying(TEN_SECONDS),
				(attempt) -> {
					throw badRequest;
				});
		assertThat(retried.answer()).isNull();
		assertThat(retried.failure()).isSameAs(badRequest);
		assertThat(retried.outcome()).isEqualTo(CallOutcome.NON_RETRYABLE);
		assertThat(retried.backoff()).isZero();
	}

	@Test
	void aCallOutOfTimeEndsWithTheLastFailureTheDeadlineAndTheWaits() {
		List<RuntimeException> thrown = new ArrayList<>();
		ModelArmorRetryTemplates.Retried<String> retried = ModelArmorRetryTemplates.execute(retrying(TEN_SECONDS),
				(attempt) -> {
					RuntimeException failure = TestHttpFailure.status(503);
					thrown.add(failure);
					throw failure;
				});
		// waits of 1, 2 and 4 s fit in 10 s; the next, 8 s, would end at 15 s
		assertThat(thrown).hasSize(4);
		assertThat(retried.failure()).isSameAs(thrown.get(3));
		assertThat(retried.outcome()).isEqualTo(CallOutcome.DEADLINE_EXCEEDED);
		assertThat(retried.backoff()).isEqualTo(Duration.ofSeconds(7));
	}

	@Test
	void aHintPastTheDeadlineEndsTheCallWithThatOutcome() {
		ModelArmorRetryTemplates.Retried<String> retried = ModelArmorRetryTemplates.execute(retrying(TEN_SECONDS),
				(attempt) -> {
					throw TestHttpFailure.status(429, Duration.ofSeconds(11));
				});
		assertThat(retried.outcome()).isEqualTo(CallOutcome.RETRY_AFTER_EXCEEDS_DEADLINE);
		assertThat(retried.backoff()).isZero();
	}

	@Test
	void aSpentBudgetEndsTheCallWithThatOutcome() {
		RetrySettings budgeted = TEN_SECONDS.withBudget(new RetryBudgetSettings(0, 0, java.time.Duration.ofSeconds(10)));
		ModelArmorRetryTemplates.Retried<String> retried = ModelArmorRetryTemplates.execute(retrying(budgeted),
				(attempt) -> {
					throw TestHttpFailure.status(503);
				});
		assertThat(retried.outcome()).isEqualTo(CallOutcome.BUDGET_EXHAUSTED);
	}

	@Test
	void listenersSeeTheAnswerItselfAndEveryFailure() {
		RetryTemplate template = retrying(TEN_SECONDS);
		List<Object> successes = new ArrayList<>();
		List<Throwable> errors = new ArrayList<>();
		template.registerListener(new RetryListener() {
			@Override
			public <T, E extends Throwable> void onSuccess(RetryContext context, RetryCallback<T, E> callback,
					T result) {
				successes.add(result);
			}

			@Override
			public <T, E extends Throwable> void onError(RetryContext context, RetryCallback<T, E> callback,
					Throwable throwable) {
				errors.add(throwable);
			}
		});
		RuntimeException unavailable = TestHttpFailure.status(503);
		ModelArmorRetryTemplates.execute(template, (attempt) -> {
			if (attempt.number() == 1) {
				throw unavailable;
			}
			return "answer";
		});
		assertThat(successes).containsExactly("answer");
		assertThat(errors).containsExactly(unavailable);
	}

	@Test
	void aTemplateWithAnotherBackOffHandsNoDeadline() {
		RetryTemplate template = retrying(TEN_SECONDS);
		template.setBackOffPolicy(new NoBackOffPolicy());
		List<ModelArmorRetryTemplates.Attempt> seen = new ArrayList<>();
		ModelArmorRetryTemplates.Retried<String> retried = ModelArmorRetryTemplates.execute(template, (attempt) -> {
			seen.add(attempt);
			throw TestHttpFailure.status(400);
		});
		assertThat(seen).singleElement().satisfies((attempt) -> assertThat(attempt.deadline()).isNull());
		assertThat(retried.outcome()).isEqualTo(CallOutcome.NON_RETRYABLE);
	}

	@Test
	void aSingleAttemptTemplateStillHandsTheDeadline() {
		RetryTemplate template = ModelArmorRetryTemplates.singleAttempt(TEN_SECONDS, this.time.runtime(TestRandoms.unused()));
		ModelArmorRetryTemplates.Retried<String> retried = ModelArmorRetryTemplates.execute(template, (attempt) -> {
			assertThat(attempt.deadline().remaining()).isEqualTo(Duration.ofSeconds(10));
			throw TestHttpFailure.status(503);
		});
		assertThat(retried.outcome()).isEqualTo(CallOutcome.NON_RETRYABLE);
	}

	@Test
	void aWaitCutShortIsThrown() {
		ShutdownAwareSleeper sleeper = new ShutdownAwareSleeper();
		sleeper.close();
		RetryTemplate template = ModelArmorRetryTemplates.retrying(TEN_SECONDS,
				new RetryRuntime(this.time, sleeper, TestRandoms.unused()));
		assertThatExceptionOfType(BackOffInterruptedException.class)
			.isThrownBy(() -> ModelArmorRetryTemplates.execute(template, (attempt) -> {
				throw TestHttpFailure.status(503);
			}));
	}

	private RetryTemplate retrying(RetrySettings settings) {
		return ModelArmorRetryTemplates.retrying(settings, this.time.runtime(TestRandoms.unused()));
	}

}
