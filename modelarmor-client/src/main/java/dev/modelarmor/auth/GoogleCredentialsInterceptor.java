package dev.modelarmor.auth;

import java.io.IOException;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import com.google.auth.Credentials;
import com.google.auth.oauth2.OAuth2Credentials;
import dev.modelarmor.client.HttpTimeouts;
import dev.modelarmor.client.NonBlockingAuthorization;
import dev.modelarmor.client.internal.transport.RequestDeadline;
import dev.modelarmor.retry.RetryDeadline;
import dev.modelarmor.retry.TokenUnavailableException;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpRequest;
import org.springframework.http.HttpStatus;
import org.springframework.http.client.ClientHttpRequestExecution;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.ClientHttpResponse;

/**
 * Authorizes each request with the headers Google credentials ask for: {@code Authorization:
 * Bearer …} and, when the credentials carry a quota project, {@code x-goog-user-project}.
 *
 * <p>Fetching a token counts against the call: a request waits for its token at most what is left of
 * the call's deadline (a limit passed to {@link #headersFor}, or the one a request carries,
 * {@link RequestDeadline}), and never longer than
 * {@code maxWait} (the read timeout), then fails with a {@link TokenUnavailableException}: an
 * {@link IOException}, retried like any other failed attempt. A token endpoint that accepts the
 * connection and never answers therefore cannot hold a call past its deadline.
 *
 * <p>The credentials cache the token; with OAuth2 credentials (every kind of {@code GoogleCredentials})
 * a background thread fetches the first token at once and each next one five minutes before the
 * current one expires, so that callers do not wait for a refresh. Concurrent callers that need a
 * token share one fetch.
 *
 * <p>A {@code 401} answer means Model Armor refused the token (expired early or revoked): the token is
 * refreshed once, within the same bound, and the request sent once more; a second {@code 401} is the
 * answer.
 *
 * <p>As a {@link NonBlockingAuthorization} it gives the same headers to the client's non-blocking path as a
 * future: a token at hand at once, a missing one once fetched on the fetching threads, within the same
 * bounds; no caller waits on the fetch.
 *
 * <p>Messages say what failed without any secret. {@link #close()} stops the background threads.
 */
public final class GoogleCredentialsInterceptor
		implements ClientHttpRequestInterceptor, NonBlockingAuthorization, AutoCloseable {

	private final BoundedCredentials credentials;

	private final Duration maxWait;

	private final @Nullable TokenRefresher refresher;

	/**
	 * Creates an interceptor whose requests wait for a token at most the default read timeout
	 * ({@link HttpTimeouts#DEFAULTS}), or less when their call's deadline is nearer.
	 * @param credentials the credentials, usually from {@link GoogleCredentialsLoader}
	 */
	public GoogleCredentialsInterceptor(Credentials credentials) {
		this(credentials, HttpTimeouts.DEFAULTS.read());
	}

	/**
	 * Creates an interceptor.
	 * @param credentials the credentials, usually from {@link GoogleCredentialsLoader}
	 * @param maxWait the longest a request waits for a token, usually the read timeout; a call's deadline
	 * may shorten it
	 */
	public GoogleCredentialsInterceptor(Credentials credentials, Duration maxWait) {
		this(credentials, maxWait, Clock.systemUTC(), TokenRefresher.CHECK_EVERY);
	}

	GoogleCredentialsInterceptor(Credentials credentials, Duration maxWait, Clock clock, Duration checkEvery) {
		if (maxWait.isNegative() || maxWait.isZero()) {
			throw new IllegalArgumentException("maxWait must be positive but was " + maxWait);
		}
		this.credentials = new BoundedCredentials(credentials);
		this.maxWait = maxWait;
		this.refresher = (credentials instanceof OAuth2Credentials oauth2)
				? TokenRefresher.start(oauth2, clock, checkEvery) : null;
	}

	/**
	 * Adds the credentials' request headers, replacing any header of the same name, and executes
	 * the request.
	 * @param request the request
	 * @param body the request body
	 * @param execution the rest of the chain
	 * @return the response
	 * @throws IOException a {@link TokenUnavailableException} when no access token was obtained in time,
	 * or the request's own failure
	 */
	@Override
	public ClientHttpResponse intercept(HttpRequest request, byte[] body, ClientHttpRequestExecution execution)
			throws IOException {
		authorize(request);
		ClientHttpResponse response = execution.execute(request, body);
		if (response.getStatusCode().value() != HttpStatus.UNAUTHORIZED.value()) {
			return response;
		}
		// The token was refused (expired early, revoked): fetch a new one and try once more.
		response.close();
		this.credentials.refresh(waitLimit(request));
		authorize(request);
		return execution.execute(request, body);
	}

	@Override
	public CompletableFuture<Map<String, List<String>>> headersFor(URI uri, Duration limit) {
		return this.credentials.requestMetadataAsync(uri, bounded(limit));
	}

	@Override
	public CompletableFuture<Map<String, List<String>>> refreshedHeadersFor(URI uri, Duration limit) {
		Duration bounded = bounded(limit);
		long started = System.nanoTime();
		return this.credentials.refreshAsync(bounded)
			.thenCompose((refreshed) -> this.credentials.requestMetadataAsync(uri,
					bounded.minusNanos(System.nanoTime() - started)));
	}

	private Duration bounded(Duration limit) {
		return (limit.compareTo(this.maxWait) < 0) ? limit : this.maxWait;
	}

	private void authorize(HttpRequest request) throws TokenUnavailableException {
		HttpHeaders headers = request.getHeaders();
		Map<String, List<String>> metadata = this.credentials.requestMetadata(request.getURI(), waitLimit(request));
		metadata.forEach(headers::put);
	}

	/** What is left of the call's deadline, at most {@code maxWait}. */
	private Duration waitLimit(HttpRequest request) {
		RetryDeadline deadline = RequestDeadline.of(request);
		if (deadline != null) {
			Duration remaining = deadline.remaining();
			return (remaining.compareTo(this.maxWait) < 0) ? remaining : this.maxWait;
		}
		return this.maxWait;
	}

	/**
	 * Stops the threads that fetch tokens in the background; requests after that fail with a
	 * {@link TokenUnavailableException} unless a valid token is at hand.
	 */
	@Override
	public void close() {
		if (this.refresher != null) {
			this.refresher.close();
		}
		this.credentials.close();
	}

}
