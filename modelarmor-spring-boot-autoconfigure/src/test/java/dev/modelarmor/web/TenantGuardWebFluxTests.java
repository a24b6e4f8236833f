package dev.modelarmor.web;

import java.time.Duration;
import java.util.List;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.modelarmor.autoconfigure.ModelArmorAutoConfiguration;
import dev.modelarmor.autoconfigure.ModelArmorGuardAutoConfiguration;
import dev.modelarmor.autoconfigure.ModelArmorTenantAutoConfiguration;
import dev.modelarmor.guard.ModelArmorGuarded;
import dev.modelarmor.guard.ModelArmorStubs;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.reactor.netty.autoconfigure.NettyReactiveWebServerAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.boot.webflux.autoconfigure.HttpHandlerAutoConfiguration;
import org.springframework.boot.webflux.autoconfigure.WebFluxAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.MediaType;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static dev.modelarmor.guard.ModelArmorStubs.answerEverythingClean;
import static dev.modelarmor.web.TenantGuardServletTests.path;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Reactive {@code @ModelArmorGuarded} methods of a WebFlux application with three tenants in two locations:
 * the starter's web filter puts the header's tenant in the Reactor context, where the guard reads it when the
 * answer is subscribed to.
 */
@ExtendWith(OutputCaptureExtension.class)
class TenantGuardWebFluxTests {

	static final String QUESTION = "TENANT-FLUX-Q when are you open?";

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	private ConfigurableApplicationContext context;

	private WebTestClient client;

	@BeforeEach
	void start() {
		answerEverythingClean(modelArmor);
		this.context = new SpringApplicationBuilder(App.class, ModelArmorStubs.InstantRetries.class)
			.web(WebApplicationType.REACTIVE)
			.properties(ModelArmorStubs.properties(modelArmor))
			.properties(TenantGuardServletTests.TENANTS)
			.properties("server.port=0", "server.address=127.0.0.1", "modelarmor.template-check.enabled=false")
			.run();
		int port = ((WebServerApplicationContext) this.context).getWebServer().getPort();
		// a connection per request: requests made back to back over one pooled keep-alive connection left
		// WebTestClient waiting 30 s for an answer the server had written (a known client pool race)
		this.client = WebTestClient
			.bindToServer(new ReactorClientHttpConnector(HttpClient.create(ConnectionProvider.newConnection())))
			.baseUrl("http://127.0.0.1:" + port)
			.responseTimeout(Duration.ofSeconds(30))
			.build();
	}

	@AfterEach
	void stop() {
		this.context.close();
	}

	@Test
	void eachTenantsMonoAndFluxAreScreenedWithItsTemplateInItsLocation() {
		for (String tenant : List.of("acme", "globex", "initech")) {
			this.client.get().uri("/mono?q={q}", QUESTION).header("X-Tenant", tenant).exchange()
				.expectStatus().isOk().expectBody(String.class).isEqualTo("Opening hours: 9 to 5");
		}
		assertThat(TenantGuardServletTests.paths(modelArmor)).containsExactly(path("us-central1", "strict", "sanitizeUserPrompt"),
				path("us-central1", "strict", "sanitizeModelResponse"),
				path("europe-west4", "strict", "sanitizeUserPrompt"),
				path("europe-west4", "strict", "sanitizeModelResponse"),
				path("europe-west4", "relaxed", "sanitizeUserPrompt"),
				path("europe-west4", "relaxed", "sanitizeModelResponse"));
		modelArmor.resetRequests();
		List<String> events = this.client.get().uri("/stream?q={q}", QUESTION).header("X-Tenant", "globex")
			.accept(MediaType.TEXT_EVENT_STREAM)
			.exchange()
			.expectStatus().isOk()
			.returnResult(String.class).getResponseBody().collectList().block(Duration.ofSeconds(30));
		assertThat(String.join("", events)).isEqualTo("Opening hours: 9 to 5");
		assertThat(TenantGuardServletTests.paths(modelArmor)).isNotEmpty()
			.allSatisfy((path) -> assertThat(path).contains("/locations/europe-west4/templates/strict:"));
	}

	@Test
	void anUnknownTenantIsRefusedWith400BeforeAnyCall() {
		this.client.get().uri("/mono?q={q}", QUESTION).header("X-Tenant", "hooli").exchange()
			.expectStatus().isBadRequest()
			.expectHeader().contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.expectBody()
			.jsonPath("$.type").isEqualTo("urn:modelarmor:problem:unknown-tenant")
			.jsonPath("$.title").isEqualTo("Unknown tenant")
			.jsonPath("$.phase").isEqualTo("PROMPT");
		assertThat(modelArmor.getAllServeEvents()).isEmpty();
	}

	@Test
	void anEmptyOrBlankHeaderNamesNoTenantAsWithoutTheHeader() throws java.io.IOException {
		this.client.get().uri("/mono?q={q}", QUESTION).header("X-Tenant", "").exchange().expectStatus().isOk();
		// Netty's client refuses to send a blank value: written by hand, as any client may
		assertThat(rawGet("X-Tenant:    ", "X-Tenant: \t")).startsWith("HTTP/1.1 200 ");
		assertThat(rawGet("X-Tenant: ,  ,")).startsWith("HTTP/1.1 200 ");
		assertThat(TenantGuardServletTests.paths(modelArmor)).hasSize(6)
			.allSatisfy((path) -> assertThat(path).contains("/locations/us-central1/templates/default-template:"));
	}

	@Test
	void theSameTenantRepeatedIsThatTenantAndTwoDifferentOnesAreRefused(CapturedOutput output) {
		this.client.get().uri("/mono?q={q}", QUESTION).header("X-Tenant", "globex", "globex").exchange()
			.expectStatus().isOk();
		this.client.get().uri("/mono?q={q}", QUESTION).header("X-Tenant", "globex", "TENANT-EVIL-9").exchange()
			.expectStatus().isBadRequest()
			.expectHeader().contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.expectBody()
			.jsonPath("$.type").isEqualTo("urn:modelarmor:problem:ambiguous-tenant")
			.jsonPath("$.title").isEqualTo("Ambiguous tenant")
			.jsonPath("$.status").isEqualTo(400);
		this.client.get().uri("/stream?q={q}", QUESTION).header("X-Tenant", "acme, globex")
			.accept(MediaType.TEXT_EVENT_STREAM).exchange()
			.expectStatus().isBadRequest()
			.expectHeader().contentType(MediaType.APPLICATION_PROBLEM_JSON);
		assertThat(TenantGuardServletTests.paths(modelArmor)).containsExactly(
				path("europe-west4", "strict", "sanitizeUserPrompt"),
				path("europe-west4", "strict", "sanitizeModelResponse"));
		assertThat(output.getAll().lines().filter((line) -> line.contains("outcome=ambiguous_tenant"))).hasSize(2);
		assertThat(output.getAll()).doesNotContain("TENANT-EVIL-9");
		assertThat(this.context.getBean(io.micrometer.core.instrument.MeterRegistry.class)
			.get("modelarmor.tenant.refused").tag("reason", "ambiguous_header").counter().count()).isEqualTo(2);
	}

	@Test
	void noTenantUsesTheDefaultTemplate() {
		this.client.get().uri("/mono?q={q}", QUESTION).exchange().expectStatus().isOk();
		assertThat(TenantGuardServletTests.paths(modelArmor)).containsExactly(
				path("us-central1", "default-template", "sanitizeUserPrompt"),
				path("us-central1", "default-template", "sanitizeModelResponse"));
	}

	/** A GET of /mono with these header lines, over a socket of its own; the response's head and body. */
	private String rawGet(String... headerLines) throws java.io.IOException {
		int port = ((WebServerApplicationContext) this.context).getWebServer().getPort();
		try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port)) {
			socket.setSoTimeout(30_000);
			String request = "GET /mono?q=" + java.net.URLEncoder.encode(QUESTION, java.nio.charset.StandardCharsets.UTF_8)
					+ " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n" + String.join("\r\n", headerLines)
					+ "\r\n\r\n";
			socket.getOutputStream().write(request.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
			return new String(socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.ISO_8859_1);
		}
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ ModelArmorAutoConfiguration.class, ModelArmorGuardAutoConfiguration.class,
			ModelArmorTenantAutoConfiguration.class, NettyReactiveWebServerAutoConfiguration.class,
			HttpHandlerAutoConfiguration.class, WebFluxAutoConfiguration.class })
	static class App {

		@Bean
		Chat chat() {
			return new Chat();
		}

		@Bean
		io.micrometer.core.instrument.simple.SimpleMeterRegistry meterRegistry() {
			return new io.micrometer.core.instrument.simple.SimpleMeterRegistry();
		}

	}

	@RestController
	static class Chat {

		@GetMapping("/mono")
		@ModelArmorGuarded
		public Mono<String> mono(@RequestParam String q) {
			return Mono.just("Opening hours: 9 to 5");
		}

		@GetMapping(path = "/stream", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
		@ModelArmorGuarded
		public Flux<String> stream(@RequestParam String q) {
			return Flux.just("Opening hours: ", "9 to 5");
		}

	}

}
