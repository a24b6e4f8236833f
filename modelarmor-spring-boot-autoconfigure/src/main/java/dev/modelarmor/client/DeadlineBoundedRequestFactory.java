package dev.modelarmor.client;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.http.HttpMethod;
import org.springframework.http.client.ClientHttpRequest;
import org.springframework.http.client.ClientHttpRequestFactory;

/**
 * Creates requests on one shared JDK {@link HttpClient} whose read timeout is the configured one or,
 * when shorter, what is left of the retry deadline that the request carries as its
 * {@link ModelArmorRestClients#DEADLINE_ATTRIBUTE} when it is executed: an attempt never outlives the
 * deadline. Bodies go to the wire as one {@code byte[]} of known length ({@link BufferedJdkClientHttpRequest}).
 */
final class DeadlineBoundedRequestFactory implements ClientHttpRequestFactory {

	private static final AtomicInteger threads = new AtomicInteger();

	private final HttpClient httpClient;

	/**
	 * Runs the client's work off its selector thread: daemon threads named after the starter, reused across
	 * requests. Request bodies are handed over as byte arrays ({@link BufferedJdkClientHttpRequest}),
	 * without a thread of their own.
	 */
	private final Executor executor;

	private final Duration readTimeout;

	DeadlineBoundedRequestFactory(HttpTimeouts timeouts) {
		this.executor = Executors.newCachedThreadPool((task) -> {
			Thread thread = new Thread(task, "modelarmor-http-" + threads.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		});
		this.httpClient = HttpClient.newBuilder().connectTimeout(timeouts.connect()).executor(this.executor).build();
		this.readTimeout = timeouts.read();
	}

	@Override
	public ClientHttpRequest createRequest(URI uri, HttpMethod httpMethod) throws IOException {
		return new BufferedJdkClientHttpRequest(this.httpClient, uri, httpMethod, this.readTimeout);
	}

}
