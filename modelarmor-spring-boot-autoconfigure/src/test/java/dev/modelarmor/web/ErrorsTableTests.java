package dev.modelarmor.web;

import java.time.Duration;
import java.util.Map;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.modelarmor.autoconfigure.ModelArmorAutoConfiguration;
import dev.modelarmor.autoconfigure.ModelArmorGuardAutoConfiguration;
import dev.modelarmor.client.FilterExecutionState;
import dev.modelarmor.client.FilterMatchState;
import dev.modelarmor.client.FilterResult;
import dev.modelarmor.client.InvocationResult;
import dev.modelarmor.client.ModelArmorException;
import dev.modelarmor.client.PiAndJailbreakFilterResult;
import dev.modelarmor.client.SanitizationResult;
import dev.modelarmor.guard.ModelArmorStubs;
import dev.modelarmor.screening.ModelArmorInputRejectedException;
import dev.modelarmor.screening.ModelArmorNotScreenedException;
import dev.modelarmor.screening.ModelArmorUnknownTenantException;
import dev.modelarmor.screening.ModelArmorViolationException;
import dev.modelarmor.screening.Phase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.publisher.Mono;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.reactor.netty.autoconfigure.NettyReactiveWebServerAutoConfiguration;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.boot.webflux.autoconfigure.HttpHandlerAutoConfiguration;
import org.springframework.boot.webflux.autoconfigure.WebFluxAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.config.annotation.EnableWebMvc;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;

import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThatException;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * The table of docs/errors.md, row by row: what a Spring MVC and a WebFlux client see when each refusal
 * reaches the controller uncaught, as itself or as the cause of another exception (LangChain4j's guardrail
 * exceptions carry the refusal as their cause); and that the starter's handlers leave outages of direct
 * client calls to the application's own error handling.
 */
class ErrorsTableTests {

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	@Test
	void springMvcClientsSeeTheTablesProblems() {
		new WebApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ModelArmorAutoConfiguration.class,
					ModelArmorGuardAutoConfiguration.class))
			.withPropertyValues(ModelArmorStubs.properties(modelArmor))
			.withPropertyValues("modelarmor.template-check.enabled=false")
			.withUserConfiguration(Refusals.class)
			.run((context) -> {
				MockMvc mvc = MockMvcBuilders.webAppContextSetup(context).build();
				problem(mvc, "violation", 400, "Blocked by Model Armor").andExpect(jsonPath("$.filters[0]").value("pi_and_jailbreak"))
					.andExpect(jsonPath("$.type").doesNotExist());   // about:blank, left out
				problem(mvc, "wrapped-violation", 400, "Blocked by Model Armor");
				problem(mvc, "not-screened", 503, "Screening unavailable").andExpect(header().exists("Retry-After"));
				problem(mvc, "wrapped-not-screened", 503, "Screening unavailable");
				problem(mvc, "rejected", 400, "Refused by Model Armor");
				problem(mvc, "too-large", 413, "Refused by Model Armor");
				problem(mvc, "unknown-tenant", 400, "Unknown tenant")
					.andExpect(jsonPath("$.type").value("urn:modelarmor:problem:unknown-tenant"));
				assertThatException().isThrownBy(() -> mvc.perform(get("/outage")))
					.withRootCauseInstanceOf(ModelArmorException.class);
			});
	}

	@Test
	void webFluxClientsSeeTheSameProblems() {
		ConfigurableApplicationContext context = new SpringApplicationBuilder(ReactiveApp.class,
				ModelArmorStubs.InstantRetries.class)
			.web(WebApplicationType.REACTIVE)
			.properties(ModelArmorStubs.properties(modelArmor))
			.properties("server.port=0", "server.address=127.0.0.1", "modelarmor.template-check.enabled=false")
			.run();
		try {
			int port = ((WebServerApplicationContext) context).getWebServer().getPort();
			WebTestClient client = WebTestClient.bindToServer()
				.baseUrl("http://127.0.0.1:" + port)
				.responseTimeout(Duration.ofSeconds(30))
				.build();
			problem(client, "violation", 400, "Blocked by Model Armor").jsonPath("$.filters[0]").isEqualTo("pi_and_jailbreak");
			problem(client, "wrapped-violation", 400, "Blocked by Model Armor");
			problem(client, "not-screened", 503, "Screening unavailable");
			problem(client, "wrapped-not-screened", 503, "Screening unavailable");
			problem(client, "rejected", 400, "Refused by Model Armor");
			problem(client, "too-large", 413, "Refused by Model Armor");
			problem(client, "unknown-tenant", 400, "Unknown tenant").jsonPath("$.type")
				.isEqualTo("urn:modelarmor:problem:unknown-tenant");
			client.get().uri("/outage").exchange().expectStatus().isEqualTo(500);
		}
		finally {
			context.close();
		}
	}

	private static ResultActions problem(MockMvc mvc, String path, int status, String title) throws Exception {
		return mvc.perform(get("/" + path))
			.andExpect(status().is(status))
			.andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
			.andExpect(jsonPath("$.title").value(title))
			.andExpect(jsonPath("$.status").value(status))
			.andExpect(jsonPath("$.phase").value("PROMPT"));
	}

	private static WebTestClient.BodyContentSpec problem(WebTestClient client, String path, int status, String title) {
		return client.get().uri("/" + path).exchange()
			.expectStatus().isEqualTo(status)
			.expectHeader().contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.expectBody()
			.jsonPath("$.title").isEqualTo(title)
			.jsonPath("$.status").isEqualTo(status)
			.jsonPath("$.phase").isEqualTo("PROMPT");
	}

	static RuntimeException refusal(String name) {
		return switch (name) {
			case "violation" -> new ModelArmorViolationException(Phase.PROMPT, jailbreak());
			case "wrapped-violation" -> new GuardrailLikeException(refusal("violation"));
			case "not-screened" -> new ModelArmorNotScreenedException(Phase.PROMPT, "deadline_exceeded", 3, null);
			case "wrapped-not-screened" -> new GuardrailLikeException(refusal("not-screened"));
			case "rejected" -> new ModelArmorInputRejectedException(Phase.PROMPT, "HTTP 400", false, null);
			case "too-large" -> new ModelArmorInputRejectedException(Phase.PROMPT, "too large", true, null);
			case "unknown-tenant" -> new ModelArmorInputRejectedException(Phase.PROMPT,
					ModelArmorUnknownTenantException.REASON, false, new ModelArmorUnknownTenantException());
			default -> new ModelArmorException("Model Armor could not be reached after 3 attempts", 3, null);
		};
	}

	private static SanitizationResult jailbreak() {
		FilterResult pi = new FilterResult(null, null, new PiAndJailbreakFilterResult(FilterExecutionState.EXECUTION_SUCCESS,
				null, FilterMatchState.MATCH_FOUND, null), null, null, null);
		return new SanitizationResult(FilterMatchState.MATCH_FOUND, InvocationResult.SUCCESS, Map.of("pi_and_jailbreak", pi),
				null);
	}

	/** As LangChain4j's InputGuardrailException and OutputGuardrailException: the refusal is the cause. */
	static class GuardrailLikeException extends RuntimeException {

		GuardrailLikeException(Throwable cause) {
			super("The guardrail refused the call", cause);
		}

	}

	@RestController
	static class RefusingController {

		@GetMapping("/{name}")
		String refuse(@PathVariable String name) {
			throw refusal(name);
		}

	}

	@RestController
	static class ReactiveRefusingController {

		@GetMapping("/{name}")
		Mono<String> refuse(@PathVariable String name) {
			return Mono.error(refusal(name));
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableWebMvc
	static class Refusals {

		@Bean
		RefusingController refusingController() {
			return new RefusingController();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ ModelArmorAutoConfiguration.class, ModelArmorGuardAutoConfiguration.class,
			NettyReactiveWebServerAutoConfiguration.class, HttpHandlerAutoConfiguration.class,
			WebFluxAutoConfiguration.class })
	static class ReactiveApp {

		@Bean
		ReactiveRefusingController reactiveRefusingController() {
			return new ReactiveRefusingController();
		}

	}

}
