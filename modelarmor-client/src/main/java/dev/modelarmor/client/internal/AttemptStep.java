package dev.modelarmor.client.internal;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import java.util.function.Function;

import dev.modelarmor.client.ModelArmorCallObserver;
import dev.modelarmor.client.ModelArmorException;
import dev.modelarmor.client.NonBlockingAuthorization;
import dev.modelarmor.client.internal.transport.ModelArmorRestClients;
import dev.modelarmor.internal.Futures;
import dev.modelarmor.resilience.AttemptGate;
import dev.modelarmor.retry.CallOutcome;
import dev.modelarmor.retry.ModelArmorRetryTemplates;
import dev.modelarmor.retry.RetryBudget;
import dev.modelarmor.retry.RetryDeadline;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.client.ClientHttpResponse;
import org.springframework.retry.backoff.BackOffInterruptedException;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.util.DefaultUriBuilderFactory;

/**
 * What a call does around its exchanges, once for both paths ({@link ApiCalls} on the calling thread,
 * {@link AsyncApiCalls} without holding one): the JSON body written once, the gate's admission of each attempt,
 * the request headers, the authorization (and, after a {@code 401}, once more with a refreshed token),
 * the answer's reading, an attempt's failure in one shape, and how the call ends. The two paths differ only
 * in their {@link Path}: how the retries run and how one step follows another.
 */
public final class AttemptStep {

	/** The {@code Accept} and {@code Content-Type} of every call. */
	static final String JSON = MediaType.APPLICATION_JSON_VALUE;

	private static final byte[] NO_BODY = new byte[0];

	/** The headers of a call without a body, built once: no attempt formats them again. */
	private final HttpHeaders withoutBody;

	/** The headers of a call with a JSON body. */
	private final HttpHeaders withBody;

	private final URI endpoint;

	private final @Nullable NonBlockingAuthorization authorization;

	private final Duration readTimeout;

	private final AttemptGate gate;

	private final ModelArmorCallObserver observer;

	/**
	 * The step of the attempts sent to one endpoint.
	 * @param endpoint the endpoint
	 * @param authorization the authorization that holds no thread, or {@code null}
	 * @param quotaProjectId the project billed for the calls, or {@code null}
	 * @param readTimeout the longest wait for an answer
	 * @param gate what lets each attempt go
	 * @param observer what each attempt is reported to
	 */
	public AttemptStep(URI endpoint, @Nullable NonBlockingAuthorization authorization, @Nullable String quotaProjectId,
			Duration readTimeout, AttemptGate gate, ModelArmorCallObserver observer) {
		this.endpoint = endpoint;
		this.authorization = authorization;
		this.readTimeout = readTimeout;
		this.gate = gate;
		this.observer = observer;
		HttpHeaders headers = new HttpHeaders();
		headers.set(HttpHeaders.ACCEPT, JSON);
		if (quotaProjectId != null) {
			headers.set(ModelArmorRestClients.QUOTA_PROJECT_HEADER, quotaProjectId);
		}
		this.withoutBody = HttpHeaders.readOnlyHttpHeaders(headers);
		HttpHeaders json = new HttpHeaders();
		json.addAll(headers);
		json.set(HttpHeaders.CONTENT_TYPE, JSON);
		this.withBody = HttpHeaders.readOnlyHttpHeaders(json);
	}

	private AttemptStep(AttemptStep step, AttemptGate gate, ModelArmorCallObserver observer) {
		this.endpoint = step.endpoint;
		this.authorization = step.authorization;
		this.readTimeout = step.readTimeout;
		this.withoutBody = step.withoutBody;
		this.withBody = step.withBody;
		this.gate = gate;
		this.observer = observer;
	}

	AttemptStep observedBy(ModelArmorCallObserver observer) {
		return new AttemptStep(this, this.gate, observer);
	}

	AttemptStep gatedBy(AttemptGate gate) {
		return new AttemptStep(this, gate, this.observer);
	}

	/**
	 * Starts a call: its body written once for all of its attempts, its URI built, and its progress and
	 * admissions opened; the caller ends it with {@link Started#ended()}.
	 * @throws RuntimeException when the body cannot be written (nothing was started then)
	 */
	<T> Started<T> start(ApiCall call, Class<T> answerType, String expected) {
		Object request = call.body();
		byte[] body = (request != null) ? ModelArmorJson.writerFor(request.getClass()).writeValueAsBytes(request) : NO_BODY;
		URI uri = (call.resolvedUri() != null) ? call.resolvedUri()
				: call.uri(new DefaultUriBuilderFactory(((call.endpoint() != null) ? call.endpoint() : this.endpoint)
					.toString()).builder());
		String location = locationOf(call);
		CallProgress progress = new CallProgress(call.operation(), templateOf(call),
				RetryBudget.NO_LOCATION.equals(location) ? null : location, this.observer);
		return new Started<>(call, uri, body, (body.length > 0) ? this.withBody : this.withoutBody, answerType, expected,
				progress, location, this.gate.call(call.operation(), progress.template(), location));
	}

	/** The template a call addresses, for the gate. */
	private static @Nullable String templateOf(ApiCall call) {
		return (call.variables().get("template") instanceof String template) ? template : null;
	}

	/**
	 * The location a call goes to, whose circuit breaker and retry budget it answers to: the location in its
	 * path (checked as one path segment when the call was made), else {@link RetryBudget#NO_LOCATION}.
	 */
	private static String locationOf(ApiCall call) {
		return (call.variables().get("location") instanceof String location) ? location : RetryBudget.NO_LOCATION;
	}

	/**
	 * One attempt: the gate admits it or refuses it (then nothing is sent and the call ends with the
	 * refusal's outcome, which no retry follows), the request is authorized and exchanged on the path's
	 * transport, and the answer read; the gate hears how an admitted attempt ended.
	 * @return the answer, or the attempt's failure in the shape both paths give it
	 */
	<T> CompletableFuture<T> attempt(Started<T> call, ModelArmorRetryTemplates.Attempt attempt, Path path) {
		CallProgress progress = call.progress();
		progress.beforeAttempt(attempt.previousFailure());
		int number = progress.attempting(attempt.number(), attempt.backoff());
		RetryDeadline deadline = attempt.deadline();
		return path.then(path.admit(call.admissions(), deadline), (admission) -> {
			CallOutcome refusal = admission.refusal();
			if (refusal != null) {
				return CompletableFuture.failedFuture(progress.refused(number, refusal));
			}
			progress.lastStatus = "none";
			CompletableFuture<ClientHttpResponse> exchanged = authorized(call, deadline, path);
			CompletableFuture<T> answer = exchanged.handle((response, failure) -> {
				if (failure != null) {
					throw failed(Futures.unwrap(failure), call, number);
				}
				try (response) {
					return AnswerReader.read(response, call.answerType(), call.expected(), number, progress);
				}
				catch (IOException | ModelArmorException ex) {
					throw failed(ex, call, number);
				}
			});
			Futures.cancelWith(answer, exchanged);
			answer.whenComplete((done, failure) -> admission.ended(progress.lastStatus));
			return answer;
		}, (admission) -> admission.ended("none"));
	}

	/** The exchange with the authorization's headers, and once more with a refreshed token after a {@code 401}. */
	private CompletableFuture<ClientHttpResponse> authorized(Started<?> call, @Nullable RetryDeadline deadline,
			Path path) {
		NonBlockingAuthorization authorization = this.authorization;
		if (authorization == null) {
			return path.exchange(call, call.headers(), deadline);
		}
		Duration limit = (deadline != null) ? deadline.remaining() : this.readTimeout;
		CompletableFuture<ClientHttpResponse> first = path.then(authorization.headersFor(call.uri(), limit),
				(authorizing) -> path.exchange(call, withAuthorization(call.headers(), authorizing), deadline), null);
		return path.then(first, (response) -> {
			if (!isUnauthorized(response)) {
				return CompletableFuture.completedFuture(response);
			}
			// Model Armor refused the token (expired early, revoked): a new one, and one more exchange
			response.close();
			Duration left = (deadline != null) ? deadline.remaining() : this.readTimeout;
			return path.then(authorization.refreshedHeadersFor(call.uri(), left),
					(authorizing) -> path.exchange(call, withAuthorization(call.headers(), authorizing), deadline), null);
		}, ClientHttpResponse::close);
	}

	private static HttpHeaders withAuthorization(HttpHeaders headers, Map<String, List<String>> authorization) {
		HttpHeaders authorized = new HttpHeaders();
		authorized.addAll(headers);
		authorization.forEach(authorized::put);
		return authorized;
	}

	private static boolean isUnauthorized(ClientHttpResponse response) {
		try {
			return response.getStatusCode().value() == HttpStatus.UNAUTHORIZED.value();
		}
		catch (IOException ex) {
			// not an answer whose status can be read: the reading says so
			return false;
		}
	}

	/** A failed attempt in one shape on both paths, reported to the observer. */
	private static RuntimeException failed(Throwable failure, Started<?> call, int attempt) {
		CallProgress progress = call.progress();
		if (failure instanceof IOException io) {
			// as RestClient wraps an I/O failure, so that both paths fail with the same chain of causes
			return progress.unreachable(new ResourceAccessException("I/O error on " + call.call().method().name()
					+ " request for \"" + call.uri() + "\": " + io.getMessage(), io), attempt);
		}
		if (failure instanceof ResourceAccessException unreachable) {
			return progress.unreachable(unreachable, attempt);
		}
		if (failure instanceof ModelArmorException modelArmor) {
			progress.attemptFailed(attempt, modelArmor);
			return modelArmor;
		}
		if (failure instanceof RuntimeException runtime) {
			return runtime;
		}
		if (failure instanceof Error error) {
			throw error;
		}
		return new IllegalStateException("Model Armor attempt failed", failure);
	}

	/**
	 * How a call ends when its retries did not give an answer or a failure of their own: cut short while
	 * waiting ({@link CallOutcome#INTERRUPTED}), or failed with what no retry follows.
	 * @return the exception the call ends with
	 * @throws Error an error, once the call's end is reported
	 */
	static RuntimeException endedBy(CallProgress progress, Throwable failure) {
		if (failure instanceof BackOffInterruptedException interrupted) {
			return progress.abandoned(interrupted);
		}
		if (failure instanceof Error error) {
			progress.finish(CallOutcome.NON_RETRYABLE);
			throw error;
		}
		return progress.failed(failure, CallProgress.refusalOr(failure, CallOutcome.NON_RETRYABLE));
	}

	/**
	 * A call on its way: what every attempt sends, and what the call has seen so far. (A class, not a
	 * record: the package's records are its JSON, and carry reflection hints.)
	 */
	static final class Started<T> {

		private final ApiCall call;

		private final URI uri;

		private final byte[] body;

		private final HttpHeaders headers;

		private final Class<T> answerType;

		private final String expected;

		private final CallProgress progress;

		private final String location;

		private final AttemptGate.CallAdmissions admissions;

		Started(ApiCall call, URI uri, byte[] body, HttpHeaders headers, Class<T> answerType, String expected,
				CallProgress progress, String location, AttemptGate.CallAdmissions admissions) {
			this.location = location;
			this.call = call;
			this.uri = uri;
			this.body = body;
			this.headers = headers;
			this.answerType = answerType;
			this.expected = expected;
			this.progress = progress;
			this.admissions = admissions;
		}

		/** The call. */
		ApiCall call() {
			return this.call;
		}

		/** The location it goes to, whose breaker and retry budget it answers to. */
		String location() {
			return this.location;
		}

		/** Its URI, built once. */
		URI uri() {
			return this.uri;
		}

		/** Its JSON body, written once; empty for none. */
		byte[] body() {
			return this.body;
		}

		/** The headers of each attempt, before authorization. */
		HttpHeaders headers() {
			return this.headers;
		}

		Class<T> answerType() {
			return this.answerType;
		}

		/** What a valid answer is, for the message when it is not. */
		String expected() {
			return this.expected;
		}

		CallProgress progress() {
			return this.progress;
		}

		AttemptGate.CallAdmissions admissions() {
			return this.admissions;
		}

		/** The call ended, whatever way: the gate hears it once. */
		void ended() {
			this.admissions.ended();
		}

	}

	/**
	 * What differs between the two paths: how an attempt is admitted, exchanged, and how one step follows
	 * another.
	 */
	interface Path {

		/** The gate's decision: slept for on the blocking path, scheduled on the other. */
		CompletableFuture<AttemptGate.Admission> admit(AttemptGate.CallAdmissions admissions,
				@Nullable RetryDeadline deadline);

		/** One exchange of an attempt's request. */
		CompletableFuture<ClientHttpResponse> exchange(Started<?> call, HttpHeaders headers,
				@Nullable RetryDeadline deadline);

		/**
		 * The next step once the first is done; {@code skipped} hears the first's value when the call was
		 * cancelled meanwhile and the next step never runs.
		 */
		<A, B> CompletableFuture<B> then(CompletableFuture<A> first, Function<A, CompletableFuture<B>> next,
				@Nullable Consumer<A> skipped);

	}

	/** The blocking path's sequencing: every step on the calling thread, one after the other. */
	abstract static class OnTheCallingThread implements Path {

		@Override
		public CompletableFuture<AttemptGate.Admission> admit(AttemptGate.CallAdmissions admissions,
				@Nullable RetryDeadline deadline) {
			return CompletableFuture.completedFuture(admissions.admit(deadline));
		}

		/**
		 * Waits for the first step (only an access token being fetched is not done at once; its future ends
		 * within its own limit), then runs the next on this thread.
		 */
		@Override
		public <A, B> CompletableFuture<B> then(CompletableFuture<A> first, Function<A, CompletableFuture<B>> next,
				@Nullable Consumer<A> skipped) {
			A value;
			try {
				value = first.get();
			}
			catch (ExecutionException | CancellationException ex) {
				return CompletableFuture.failedFuture(Futures.unwrap(ex));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				first.cancel(true);
				return CompletableFuture.failedFuture(new InterruptedIOException("Interrupted while waiting to send"));
			}
			try {
				return next.apply(value);
			}
			catch (RuntimeException ex) {
				return CompletableFuture.failedFuture(ex);
			}
		}

		/** The value of a future this path made, always done: its failure thrown as it was raised. */
		static <T> T valueOf(CompletableFuture<T> done) {
			return Futures.join(done);
		}

	}

	/** The non-blocking path's sequencing: each step when the one before completes, cancels reaching it. */
	abstract static class WhenDone implements Path {

		@Override
		public CompletableFuture<AttemptGate.Admission> admit(AttemptGate.CallAdmissions admissions,
				@Nullable RetryDeadline deadline) {
			return admissions.admitAsync(deadline);
		}

		@Override
		public <A, B> CompletableFuture<B> then(CompletableFuture<A> first, Function<A, CompletableFuture<B>> next,
				@Nullable Consumer<A> skipped) {
			return Futures.then(first, next, skipped);
		}

	}

}
