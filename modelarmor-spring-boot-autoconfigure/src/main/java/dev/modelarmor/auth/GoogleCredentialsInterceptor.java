package dev.modelarmor.auth;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import com.google.auth.Credentials;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpRequest;
import org.springframework.http.client.ClientHttpRequestExecution;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.ClientHttpResponse;

/**
 * Authorizes each request with the headers Google credentials ask for: {@code Authorization:
 * Bearer …} and, when the credentials carry a quota project, {@code x-goog-user-project}.
 *
 * <p>The credentials cache the access token and refresh it shortly before it expires, so a token
 * is fetched once and then reused across calls and threads.
 *
 * <p>A {@code 401} answer means Model Armor refused the token (expired early or revoked): the token is
 * refreshed once and the request sent once more; a second {@code 401} is the answer.
 *
 * <p>When no token can be obtained, {@link #intercept} throws an {@link IOException} whose message
 * says so without any secret; callers handle it like any other I/O failure.
 */
public final class GoogleCredentialsInterceptor implements ClientHttpRequestInterceptor {

	private final Credentials credentials;

	/**
	 * Creates an interceptor.
	 * @param credentials the credentials, usually from {@link GoogleCredentialsLoader}
	 */
	public GoogleCredentialsInterceptor(Credentials credentials) {
		this.credentials = credentials;
	}

	/**
	 * Adds the credentials' request headers, replacing any header of the same name, and executes
	 * the request.
	 * @param request the request
	 * @param body the request body
	 * @param execution the rest of the chain
	 * @return the response
	 * @throws IOException when no access token could be obtained, or the request failed
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
		refresh();
		authorize(request);
		return execution.execute(request, body);
	}

	private void authorize(HttpRequest request) throws IOException {
		HttpHeaders headers = request.getHeaders();
		requestMetadata(request).forEach(headers::put);
	}

	private void refresh() throws IOException {
		try {
			this.credentials.refresh();
		}
		catch (IOException ex) {
			throw new IOException("Could not refresh the Google access token refused by Model Armor ("
					+ ex.getClass().getSimpleName() + ")", ex);
		}
	}

	private Map<String, List<String>> requestMetadata(HttpRequest request) throws IOException {
		try {
			return this.credentials.getRequestMetadata(request.getURI());
		}
		catch (IOException ex) {
			throw new IOException("Could not obtain a Google access token for the Model Armor call ("
					+ ex.getClass().getSimpleName() + "); check the credentials and that the token endpoint is reachable",
					ex);
		}
	}

}
