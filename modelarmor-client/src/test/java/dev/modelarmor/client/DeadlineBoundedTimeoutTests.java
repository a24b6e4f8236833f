package dev.modelarmor.client;

import java.net.URI;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.modelarmor.client.internal.transport.AnswerDeadlines;
import dev.modelarmor.client.internal.transport.BufferedJdkClientHttpRequest;
import dev.modelarmor.client.internal.transport.DeadlineBoundedRequestFactory;
import dev.modelarmor.client.internal.transport.ModelArmorRestClients;
import dev.modelarmor.client.internal.transport.RequestDeadline;
import dev.modelarmor.retry.RetryDeadline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.http.HttpMethod;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;

import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * An attempt's read timeout is what is left of the deadline it carries ({@link RequestDeadline}), read when
 * the request is sent: no thread-local, and the same whether or not interceptors run before it.
 */
class DeadlineBoundedTimeoutTests {

	private static final Duration READ_TIMEOUT = Duration.ofSeconds(30);

	@RegisterExtension
	static WireMockExtension wireMock = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	private final BufferedJdkClientHttpRequest request = new BufferedJdkClientHttpRequest(HttpClient.newHttpClient(),
			new AnswerDeadlines(), new java.util.concurrent.Semaphore(1), URI.create("http://localhost/"), HttpMethod.POST,
			READ_TIMEOUT);

	@Test
	void withoutADeadlineTheReadTimeoutHolds() {
		assertThat(this.request.timeout()).isEqualTo(READ_TIMEOUT);
	}

	@Test
	void aDeadlineCloserThanTheReadTimeoutShortensIt() {
		carrying(Duration.ofSeconds(2));
		assertThat(this.request.timeout()).isBetween(Duration.ofMillis(1_500), Duration.ofSeconds(2));
	}

	@Test
	void aDeadlineFartherThanTheReadTimeoutLeavesIt() {
		carrying(Duration.ofMinutes(5));
		assertThat(this.request.timeout()).isEqualTo(READ_TIMEOUT);
	}

	@Test
	void aPassedDeadlineLeavesTheShortestTimeoutNotNone() {
		carrying(Duration.ofSeconds(-1));
		assertThat(this.request.timeout()).isEqualTo(Duration.ofMillis(1));
	}

	@Test
	void anAttributeOfTheApplicationsOwnIsNotTheDeadline() {
		this.request.getAttributes().put("deadline", RetryDeadline.startingNow(Clock.systemUTC(), Duration.ofSeconds(2)));
		this.request.getAttributes().put(RetryDeadline.class.getName(), "soon");
		assertThat(this.request.timeout()).isEqualTo(READ_TIMEOUT);
	}

	@ParameterizedTest(name = "interceptor: {0}")
	@ValueSource(booleans = { false, true })
	@Timeout(10)
	void aSlowAnswerIsCutOffAtTheDeadlineOverHttp(boolean withInterceptor) {
		wireMock.stubFor(post(urlPathEqualTo("/slow")).willReturn(okJson("{}").withFixedDelay(5_000)));
		ClientHttpRequestInterceptor passThrough = (request, body, execution) -> execution.execute(request, body);
		RestClient client = ModelArmorRestClients.create(RestClient.builder(),
				ModelArmorEndpoint.of(wireMock.baseUrl()), new DeadlineBoundedRequestFactory(new HttpTimeouts(Duration.ofSeconds(5), READ_TIMEOUT)),
				withInterceptor ? passThrough : null, null);
		RetryDeadline deadline = RetryDeadline.startingNow(Clock.systemUTC(), Duration.ofMillis(300));
		long start = System.nanoTime();
		assertThatExceptionOfType(ResourceAccessException.class).isThrownBy(() -> RequestDeadline.carry(client.post()
			.uri("/slow"), deadline)
			.body(new byte[] { '{', '}' })
			.retrieve()
			.toBodilessEntity());
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
	}

	private void carrying(Duration left) {
		RequestDeadline.carry(this.request, RetryDeadline.startingNow(Clock.systemUTC(), left));
	}

}
