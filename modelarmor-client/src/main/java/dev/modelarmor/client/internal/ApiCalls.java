package dev.modelarmor.client.internal;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import dev.modelarmor.client.ModelArmorCallObserver;
import dev.modelarmor.client.internal.transport.BufferedJdkClientHttpRequest;
import dev.modelarmor.client.internal.transport.RequestDeadline;
import dev.modelarmor.resilience.AttemptGate;
import dev.modelarmor.retry.CallOutcome;
import dev.modelarmor.retry.ModelArmorRetryTemplates;
import dev.modelarmor.retry.RetryDeadline;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;
import org.springframework.http.client.ClientHttpResponse;
import org.springframework.retry.support.RetryTemplate;
import org.springframework.web.client.RestClient;

/**
 * The blocking path: sends {@link ApiCall}s on the calling thread, each attempt an exchange of the
 * {@link RestClient} (so the application's {@code RestClient} interceptors and observations see it) made by
 * the {@link AttemptStep} that both paths share, and the attempts of a retryable call run by
 * spring-retry's {@link RetryTemplate} with the starter's back-off policy. A call that is not retryable
 * makes one attempt. Every call ends with an outcome, given to its final exception when that is made and
 * reported to the {@link ModelArmorCallObserver}.
 */
public final class ApiCalls {

	private final RestClient restClient;

	private final RetryTemplate retryTemplate;

	private final AttemptStep step;

	private final AttemptStep.Path path;

	/**
	 * The blocking calls.
	 * @param restClient the client the attempts are sent through
	 * @param retryTemplate the retries of each call
	 * @param step each attempt's step
	 */
	public ApiCalls(RestClient restClient, RetryTemplate retryTemplate, AttemptStep step) {
		this.restClient = restClient;
		this.retryTemplate = retryTemplate;
		this.step = step;
		this.path = new AttemptStep.OnTheCallingThread() {

			@Override
			public CompletableFuture<ClientHttpResponse> exchange(AttemptStep.Started<?> call, HttpHeaders headers,
					@Nullable RetryDeadline deadline) {
				return ApiCalls.this.exchange(call, headers, deadline);
			}

		};
	}

	/**
	 * These calls, reported to an observer.
	 * @param observer the observer
	 * @return the calls
	 */
	public ApiCalls observedBy(ModelArmorCallObserver observer) {
		return new ApiCalls(this.restClient, this.retryTemplate, this.step.observedBy(observer));
	}

	/**
	 * These calls, retried by other retries.
	 * @param retryTemplate the retries
	 * @return the calls
	 */
	public ApiCalls retryingWith(RetryTemplate retryTemplate) {
		return new ApiCalls(this.restClient, retryTemplate, this.step);
	}

	ApiCalls gatedBy(AttemptGate gate) {
		return new ApiCalls(this.restClient, this.retryTemplate, this.step.gatedBy(gate));
	}

	/**
	 * Sends a call.
	 * @param call the call
	 * @param answerType the type of the JSON answer
	 * @param expected what a valid answer is, for the message when it is not
	 * @return the parsed answer
	 */
	<T> T send(ApiCall call, Class<T> answerType, String expected) {
		AttemptStep.Started<T> started = this.step.start(call, answerType, expected);
		try {
			return send(started);
		}
		finally {
			started.ended();
		}
	}

	private <T> T send(AttemptStep.Started<T> call) {
		CallProgress progress = call.progress();
		if (!call.call().retryable()) {
			try {
				T answer = AttemptStep.OnTheCallingThread.valueOf(this.step.attempt(call,
						new ModelArmorRetryTemplates.Attempt(1, Duration.ZERO, null, null), this.path));
				progress.finish(CallOutcome.SUCCESS);
				return answer;
			}
			catch (RuntimeException | Error ex) {
				throw AttemptStep.endedBy(progress, ex);
			}
		}
		ModelArmorRetryTemplates.Retried<T> retried;
		try {
			retried = ModelArmorRetryTemplates.execute(this.retryTemplate, progress.call(), call.location(),
					(attempt) -> AttemptStep.OnTheCallingThread.valueOf(this.step.attempt(call, attempt, this.path)));
		}
		catch (RuntimeException | Error ex) {
			throw AttemptStep.endedBy(progress, ex);
		}
		return progress.ended(retried);
	}

	/**
	 * One exchange through the {@code RestClient}. The call's deadline, when it has one, rides on the
	 * request ({@link RequestDeadline}), so that the attempt's read timeout never outlasts it. The answer is
	 * whole by then ({@link BufferedJdkClientHttpRequest}): it is read after the exchange, and closed then.
	 */
	private CompletableFuture<ClientHttpResponse> exchange(AttemptStep.Started<?> call, HttpHeaders headers,
			@Nullable RetryDeadline deadline) {
		try {
			RestClient.RequestBodySpec request = this.restClient.method(call.call().method())
				.uri(call.uri())
				.headers((sent) -> sent.putAll(headers));
			if (deadline != null) {
				RequestDeadline.carry(request, deadline);
			}
			byte[] body = call.body();
			if (body.length > 0) {
				// written as it is, not through the message converters that RestClient would search for byte[]
				request.body((out) -> out.write(body));
			}
			return CompletableFuture.completedFuture(request.exchange((sent, response) -> response, false));
		}
		catch (RuntimeException ex) {
			return CompletableFuture.failedFuture(ex);
		}
	}

}
