package dev.modelarmor.client;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;

import dev.modelarmor.resilience.AttemptGate;
import dev.modelarmor.retry.CallOutcome;
import dev.modelarmor.retry.ModelArmorAsyncRetries;
import dev.modelarmor.retry.ModelArmorRetryTemplates;
import dev.modelarmor.retry.RetryDeadline;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.client.ClientHttpResponse;
import org.springframework.retry.backoff.BackOffInterruptedException;
import org.springframework.util.Assert;
import org.springframework.web.client.ResourceAccessException;

/**
 * Sends {@link ApiCall}s without holding a thread while an attempt or a wait is in flight: each attempt is
 * an exchange of the JDK client's {@code sendAsync} ({@link DeadlineBoundedRequestFactory#exchangeAsync}),
 * each wait a task of the {@link ModelArmorAsyncRetries}' delayer, a wait for a quota permit is the gate's
 * {@link AttemptGate#admitAsync}, and the access token comes from a {@link NonBlockingAuthorization}. The
 * rest is the blocking path's own ({@link ApiCalls}): the JSON body, the answer's reading
 * ({@link AnswerReader}), the failures' translation and the outcomes reported ({@link CallProgress}), so a
 * call ends the same way on either path.
 *
 * <p>Cancelling a call's future cancels its exchange or its wait and starts no other attempt; the call is
 * reported as {@link CallOutcome#INTERRUPTED}.
 */
final class AsyncApiCalls {

	private final DeadlineBoundedRequestFactory transport;

	private final @Nullable NonBlockingAuthorization authorization;

	private final @Nullable String quotaProjectId;

	private final Duration readTimeout;

	private final ModelArmorAsyncRetries retries;

	private final ModelArmorCallObserver observer;

	private final AttemptGate gate;

	AsyncApiCalls(DeadlineBoundedRequestFactory transport, @Nullable NonBlockingAuthorization authorization,
			@Nullable String quotaProjectId, Duration readTimeout, ModelArmorAsyncRetries retries,
			ModelArmorCallObserver observer, AttemptGate gate) {
		this.transport = transport;
		this.authorization = authorization;
		this.quotaProjectId = quotaProjectId;
		this.readTimeout = readTimeout;
		this.retries = retries;
		this.observer = observer;
		this.gate = gate;
	}

	AsyncApiCalls observedBy(ModelArmorCallObserver observer) {
		return new AsyncApiCalls(this.transport, this.authorization, this.quotaProjectId, this.readTimeout, this.retries,
				observer, this.gate);
	}

	/**
	 * Sends a retryable call whose URI is resolved ({@link ApiCall#resolvedAt(URI)}).
	 * @param call the call
	 * @param answerType the type of the JSON answer
	 * @param expected what a valid answer is, for the message when it is not
	 * @return the parsed answer, or the failure the blocking path would throw
	 */
	<T> CompletableFuture<T> send(ApiCall call, Class<T> answerType, String expected) {
		Assert.isTrue(call.retryable() && call.resolvedUri() != null, "a retryable call with a resolved URI");
		byte[] body;
		try {
			byte[] json = ApiCalls.jsonBody(call);
			body = (json != null) ? json : new byte[0];
		}
		catch (RuntimeException ex) {
			return CompletableFuture.failedFuture(ex);
		}
		CallProgress progress = new CallProgress(call.operation(), ApiCalls.templateOf(call), this.observer);
		AttemptGate.CallAdmissions admissions = this.gate.call(call.operation(), progress.template());
		CompletableFuture<ModelArmorRetryTemplates.Retried<T>> retried = this.retries.execute(progress.call(), (attempt) -> {
			progress.beforeAttempt(attempt.previousFailure());
			return gatedAttempt(admissions, call, body, answerType, expected,
					progress.attempting(attempt.number(), attempt.backoff()), attempt.deadline(), progress);
		});
		CompletableFuture<T> answer = retried.handle((ended, failure) -> {
			if (failure == null) {
				return progress.ended(ended);
			}
			Throwable cause = unwrap(failure);
			if (cause instanceof BackOffInterruptedException interrupted) {
				throw progress.abandoned(interrupted);
			}
			if (cause instanceof Error error) {
				progress.finish(CallOutcome.NON_RETRYABLE);
				throw error;
			}
			throw progress.failed(cause, CallOutcome.NON_RETRYABLE);
		});
		CompletableFuture<Void> pastDeadline = this.retries.pastDeadline();
		pastDeadline.thenRun(() -> {
			if (!answer.isDone() && answer.completeExceptionally(progress.pastDeadline())) {
				retried.cancel(true);
			}
		});
		answer.whenComplete((done, failure) -> {
			pastDeadline.cancel(false);
			admissions.ended();
			// a cancelled future runs no stage of its own: the call ends here
			if (answer.isCancelled()) {
				retried.cancel(true);
				progress.finish(CallOutcome.INTERRUPTED);
			}
		});
		progress.leftTheStartingThread();
		return answer;
	}

	/** As the blocking path's: the gate admits the attempt or refuses it, and hears how an admitted one ended. */
	private <T> CompletableFuture<T> gatedAttempt(AttemptGate.CallAdmissions admissions, ApiCall call, byte[] body,
			Class<T> answerType, String expected, int attempt, @Nullable RetryDeadline deadline, CallProgress progress) {
		CompletableFuture<T> result = new CompletableFuture<>();
		CompletableFuture<AttemptGate.Admission> admitted = admissions.admitAsync(deadline);
		cancelWith(result, admitted);
		admitted.whenComplete((admission, failure) -> {
			if (failure != null) {
				result.completeExceptionally(unwrap(failure));
				return;
			}
			CallOutcome refusal = admission.refusal();
			if (refusal != null) {
				result.completeExceptionally(progress.refused(attempt, refusal));
				return;
			}
			if (result.isDone()) {
				admission.ended("none");
				return;
			}
			progress.lastStatus = "none";
			CompletableFuture<T> sent = attempt(call, body, answerType, expected, attempt, deadline, progress);
			cancelWith(result, sent);
			sent.whenComplete((answer, attemptFailure) -> {
				admission.ended(progress.lastStatus);
				if (attemptFailure == null) {
					result.complete(answer);
				}
				else {
					result.completeExceptionally(unwrap(attemptFailure));
				}
			});
		});
		return result;
	}

	/**
	 * Makes one attempt: the token, the exchange, and once more with a new token when Model Armor refused
	 * the first with {@code 401}, as the blocking path's authorization interceptor does.
	 */
	private <T> CompletableFuture<T> attempt(ApiCall call, byte[] body, Class<T> answerType, String expected,
			int attempt, @Nullable RetryDeadline deadline, CallProgress progress) {
		URI uri = java.util.Objects.requireNonNull(call.resolvedUri());
		NonBlockingAuthorization authorization = this.authorization;
		CompletableFuture<ClientHttpResponse> exchanged = then(headers(uri, deadline, false),
				(headers) -> exchange(call, uri, headers, body, deadline));
		if (authorization != null) {
			exchanged = then(exchanged, (response) -> !isUnauthorized(response)
					? CompletableFuture.completedFuture(response)
					: then(headers(uri, deadline, true), (headers) -> exchange(call, uri, headers, body, deadline)));
		}
		CompletableFuture<ClientHttpResponse> inFlight = exchanged;
		CompletableFuture<T> answer = exchanged.handle((response, failure) -> {
			if (failure != null) {
				throw translated(unwrap(failure), call, uri, attempt, progress);
			}
			try {
				return AnswerReader.read(response, answerType, expected, attempt, progress);
			}
			catch (IOException ex) {
				throw translated(ex, call, uri, attempt, progress);
			}
			catch (ModelArmorException ex) {
				progress.attemptFailed(attempt, ex);
				throw ex;
			}
		});
		cancelWith(answer, inFlight);
		return answer;
	}

	private static boolean isUnauthorized(ClientHttpResponse response) {
		try {
			return response.getStatusCode().value() == HttpStatus.UNAUTHORIZED.value();
		}
		catch (IOException ex) {
			// the answer is whole already: its status is at hand
			return false;
		}
	}

	private CompletableFuture<Map<String, List<String>>> headers(URI uri, @Nullable RetryDeadline deadline,
			boolean refreshed) {
		NonBlockingAuthorization authorization = this.authorization;
		if (authorization == null) {
			return CompletableFuture.completedFuture(Map.of());
		}
		Duration limit = (deadline != null) ? deadline.remaining() : this.readTimeout;
		return refreshed ? authorization.refreshedHeadersFor(uri, limit) : authorization.headersFor(uri, limit);
	}

	private CompletableFuture<ClientHttpResponse> exchange(ApiCall call, URI uri, Map<String, List<String>> authorization,
			byte[] body, @Nullable RetryDeadline deadline) {
		HttpHeaders headers = new HttpHeaders();
		headers.set(HttpHeaders.ACCEPT, ApiCalls.JSON);
		if (body.length > 0) {
			headers.set(HttpHeaders.CONTENT_TYPE, ApiCalls.JSON);
		}
		if (this.quotaProjectId != null) {
			headers.set(ModelArmorRestClients.QUOTA_PROJECT_HEADER, this.quotaProjectId);
		}
		authorization.forEach(headers::put);
		return this.transport.exchangeAsync(uri, call.method(), headers, body, deadline);
	}

	/** A failed attempt in the shape the blocking path gives it, reported to the observer. */
	private static RuntimeException translated(Throwable failure, ApiCall call, URI uri, int attempt,
			CallProgress progress) {
		if (failure instanceof IOException io) {
			// as RestClient wraps an I/O failure, so that both paths fail with the same chain of causes
			return progress.unreachable(new ResourceAccessException(
					"I/O error on " + call.method().name() + " request for \"" + uri + "\": " + io.getMessage(), io),
					attempt);
		}
		if (failure instanceof ModelArmorException modelArmor) {
			progress.attemptFailed(attempt, modelArmor);
			return modelArmor;
		}
		return (failure instanceof RuntimeException runtime) ? runtime : new CompletionException(failure);
	}

	/**
	 * {@code thenCompose} whose cancel reaches the step in flight, the first or the next: a cancelled call
	 * cancels its exchange, not only what would follow it.
	 */
	static <A, B> CompletableFuture<B> then(CompletableFuture<A> first, Function<A, CompletableFuture<B>> next) {
		CompletableFuture<B> result = new CompletableFuture<>();
		cancelWith(result, first);
		first.whenComplete((value, failure) -> {
			if (failure != null) {
				result.completeExceptionally(unwrap(failure));
				return;
			}
			if (result.isDone()) {
				return;
			}
			CompletableFuture<B> second;
			try {
				second = next.apply(value);
			}
			catch (RuntimeException ex) {
				result.completeExceptionally(ex);
				return;
			}
			cancelWith(result, second);
			second.whenComplete((answer, secondFailure) -> {
				if (secondFailure != null) {
					result.completeExceptionally(unwrap(secondFailure));
				}
				else {
					result.complete(answer);
				}
			});
		});
		return result;
	}

	/** When {@code outer} is cancelled, so is {@code inner}: a cancel reaches the exchange in flight. */
	static void cancelWith(CompletableFuture<?> outer, CompletableFuture<?> inner) {
		outer.whenComplete((done, failure) -> {
			if (outer.isCancelled()) {
				inner.cancel(true);
			}
		});
	}

	static Throwable unwrap(Throwable failure) {
		Throwable cause = failure;
		while (cause instanceof CompletionException && cause.getCause() != null) {
			cause = cause.getCause();
		}
		return cause;
	}

}
