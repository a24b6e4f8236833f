package dev.modelarmor.client;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import com.sun.net.httpserver.HttpServer;
import dev.modelarmor.client.internal.transport.AnswerDeadlines;
import dev.modelarmor.client.internal.transport.BufferedJdkClientHttpRequest;
import dev.modelarmor.client.internal.transport.DeadlineBoundedRequestFactory;
import org.junit.jupiter.api.Test;

import org.springframework.http.HttpMethod;
import org.springframework.http.client.ClientHttpRequest;
import org.springframework.http.client.ClientHttpResponse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The transport's bounds: its executor never runs more than {@link DeadlineBoundedRequestFactory#MAX_THREADS}
 * threads however many calls run at once, and a request that finds every exchange slot taken fails, within
 * its timeout and saying why, instead of waiting past it.
 */
class BoundedTransportTests {

	@Test
	void manyConcurrentCallsRunOnABoundedExecutor() throws Exception {
		HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		server.setExecutor(Executors.newFixedThreadPool(8));
		byte[] answer = "{}".getBytes(StandardCharsets.UTF_8);
		server.createContext("/", (exchange) -> {
			exchange.getRequestBody().readAllBytes();
			exchange.sendResponseHeaders(200, answer.length);
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(answer);
			}
		});
		server.start();
		int callers = 4 * DeadlineBoundedRequestFactory.MAX_THREADS;
		ExecutorService threads = Executors.newFixedThreadPool(callers);
		try (DeadlineBoundedRequestFactory factory = new DeadlineBoundedRequestFactory(
				new HttpTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(10)))) {
			URI uri = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
			List<Future<Integer>> calls = new ArrayList<>();
			for (int i = 0; i < callers * 10; i++) {
				calls.add(threads.submit(() -> {
					ClientHttpRequest request = factory.createRequest(uri, HttpMethod.POST);
					request.getBody().write(answer);
					try (ClientHttpResponse response = request.execute()) {
						return response.getStatusCode().value();
					}
				}));
			}
			for (Future<Integer> call : calls) {
				assertThat(call.get(30, TimeUnit.SECONDS)).isEqualTo(200);
			}
			assertThat(factory.executor().getLargestPoolSize()).isPositive()
				.isLessThanOrEqualTo(DeadlineBoundedRequestFactory.MAX_THREADS);
		}
		finally {
			threads.shutdownNow();
			server.stop(0);
			((ExecutorService) server.getExecutor()).shutdownNow();
		}
	}

	@Test
	void withEveryExchangeSlotTakenARequestFailsWithinItsTimeoutSayingWhy() throws Exception {
		Duration readTimeout = Duration.ofMillis(300);
		BufferedJdkClientHttpRequest request = new BufferedJdkClientHttpRequest(HttpClient.newHttpClient(),
				new AnswerDeadlines(), new Semaphore(0), URI.create("http://127.0.0.1:9/"), HttpMethod.POST,
				readTimeout);
		long start = System.nanoTime();

		assertThatExceptionOfType(IOException.class).isThrownBy(request::execute)
			.withMessageContaining(DeadlineBoundedRequestFactory.MAX_EXCHANGES_IN_FLIGHT + " exchanges were in flight")
			.withMessageContaining("300 ms");
		Duration waited = Duration.ofNanos(System.nanoTime() - start);
		assertThat(waited).isGreaterThanOrEqualTo(Duration.ofMillis(250)).isLessThan(Duration.ofSeconds(10));
	}

	@Test
	void aSlotIsGivenBackWhenTheExchangeFails() throws Exception {
		Semaphore slots = new Semaphore(1);
		BufferedJdkClientHttpRequest request = new BufferedJdkClientHttpRequest(HttpClient.newHttpClient(),
				new AnswerDeadlines(), slots, URI.create("http://127.0.0.1:9/"), HttpMethod.POST, Duration.ofSeconds(2));

		assertThatExceptionOfType(IOException.class).isThrownBy(request::execute);
		assertThat(slots.availablePermits()).isEqualTo(1);
	}

}
