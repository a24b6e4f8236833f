package dev.modelarmor.client.internal;

import java.util.concurrent.CompletableFuture;

import dev.modelarmor.client.ModelArmorCallObserver;
import dev.modelarmor.client.internal.transport.DeadlineBoundedRequestFactory;
import dev.modelarmor.internal.Futures;
import dev.modelarmor.retry.CallOutcome;
import dev.modelarmor.retry.ModelArmorAsyncRetries;
import dev.modelarmor.retry.ModelArmorRetryTemplates;
import dev.modelarmor.retry.RetryDeadline;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;
import org.springframework.http.client.ClientHttpResponse;

/**
 * The non-blocking path: sends {@link ApiCall}s without holding a thread while an attempt or a wait is in
 * flight. Each attempt is the {@link AttemptStep} that the blocking path runs too, its exchange one of
 * the JDK client's ({@link DeadlineBoundedRequestFactory#exchangeAsync}), its wait for a quota permit
 * scheduled, its token a future; each wait before a retry is a task of the {@link ModelArmorAsyncRetries}'
 * delayer. A call ends the same way on either path.
 *
 * <p>Cancelling a call's future cancels its exchange or its wait and starts no other attempt; the call is
 * reported as {@link CallOutcome#INTERRUPTED}.
 */
public final class AsyncApiCalls {

	private final DeadlineBoundedRequestFactory transport;

	private final ModelArmorAsyncRetries retries;

	private final AttemptStep step;

	private final AttemptStep.Path path;

	/**
	 * The calls that hold no thread while they wait.
	 * @param transport the transport the attempts are sent through
	 * @param retries the retries of each call
	 * @param step each attempt's step
	 */
	public AsyncApiCalls(DeadlineBoundedRequestFactory transport, ModelArmorAsyncRetries retries, AttemptStep step) {
		this.transport = transport;
		this.retries = retries;
		this.step = step;
		this.path = new AttemptStep.WhenDone() {

			@Override
			public CompletableFuture<ClientHttpResponse> exchange(AttemptStep.Started<?> call, HttpHeaders headers,
					@Nullable RetryDeadline deadline) {
				return AsyncApiCalls.this.transport.exchangeAsync(call.uri(), call.call().method(), headers, call.body(),
						deadline);
			}

		};
	}

	/**
	 * These calls, reported to an observer.
	 * @param observer the observer
	 * @return the calls
	 */
	public AsyncApiCalls observedBy(ModelArmorCallObserver observer) {
		return new AsyncApiCalls(this.transport, this.retries, this.step.observedBy(observer));
	}

	/**
	 * Sends a call and retries it as the blocking path would.
	 * @param call the call
	 * @param answerType the type of the JSON answer
	 * @param expected what a valid answer is, for the message when it is not
	 * @return the parsed answer, or the failure the blocking path would throw
	 */
	<T> CompletableFuture<T> send(ApiCall call, Class<T> answerType, String expected) {
		AttemptStep.Started<T> started;
		try {
			started = this.step.start(call, answerType, expected);
		}
		catch (RuntimeException ex) {
			return CompletableFuture.failedFuture(ex);
		}
		CallProgress progress = started.progress();
		CompletableFuture<ModelArmorRetryTemplates.Retried<T>> retried = this.retries.execute(progress.call(),
				started.location(), (attempt) -> this.step.attempt(started, attempt, this.path));
		CompletableFuture<T> answer = retried.handle((ended, failure) -> {
			if (failure == null) {
				return progress.ended(ended);
			}
			throw AttemptStep.endedBy(progress, Futures.unwrap(failure));
		});
		CompletableFuture<Void> pastDeadline = this.retries.pastDeadline(this.transport.deadlineTimer());
		pastDeadline.thenRun(() -> {
			if (!answer.isDone() && answer.completeExceptionally(progress.pastDeadline())) {
				retried.cancel(true);
			}
		});
		answer.whenComplete((done, failure) -> {
			pastDeadline.cancel(false);
			started.ended();
			// a cancelled future runs no stage of its own: the call ends here
			if (answer.isCancelled()) {
				retried.cancel(true);
				progress.finish(CallOutcome.INTERRUPTED);
			}
		});
		progress.leftTheStartingThread();
		return answer;
	}

}
