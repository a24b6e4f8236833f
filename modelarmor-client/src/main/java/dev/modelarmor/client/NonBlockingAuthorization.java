package dev.modelarmor.client;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Authorization that the non-blocking path can use: the headers of a request as a future, so that no
 * caller waits for a token to be fetched. An authorization interceptor given to
 * {@link ModelArmorTemplateBuilder#authorization} that also implements this interface (the starter's
 * {@code GoogleCredentialsInterceptor} does) lets {@link ModelArmorTemplate}'s asynchronous operations run
 * without a thread; with one that does not, they run the blocking call on the executor they are given.
 */
public interface NonBlockingAuthorization {

	/**
	 * The headers that authorize a request, such as {@code Authorization}: at once when a valid token is at
	 * hand, else once it is fetched.
	 * @param uri the request's URI
	 * @param limit the longest the request may wait for them: what is left of the call's deadline, at most
	 * the read timeout
	 * @return the headers; a future that fails with a {@link dev.modelarmor.retry.TokenUnavailableException}
	 * when none came within the limit
	 */
	CompletableFuture<Map<String, List<String>>> headersFor(URI uri, Duration limit);

	/**
	 * The headers with a new token, after Model Armor refused the current one with {@code 401}.
	 * @param uri the request's URI
	 * @param limit the longest wait
	 * @return the headers; a future that fails with a {@link dev.modelarmor.retry.TokenUnavailableException}
	 * when the token could not be refreshed within the limit
	 */
	CompletableFuture<Map<String, List<String>>> refreshedHeadersFor(URI uri, Duration limit);

}
