package dev.modelarmor.web;

import java.util.List;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.modelarmor.autoconfigure.ModelArmorAutoConfiguration;
import dev.modelarmor.autoconfigure.ModelArmorGuardAutoConfiguration;
import dev.modelarmor.autoconfigure.ModelArmorTenantAutoConfiguration;
import dev.modelarmor.guard.ModelArmorGuarded;
import dev.modelarmor.guard.ModelArmorStubs;
import dev.modelarmor.web.internal.ModelArmorTenantFilter;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.config.annotation.EnableWebMvc;

import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static dev.modelarmor.guard.ModelArmorStubs.JAILBREAK;
import static dev.modelarmor.guard.ModelArmorStubs.PROJECT;
import static dev.modelarmor.guard.ModelArmorStubs.answerEverythingClean;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * {@code @ModelArmorGuarded} in a servlet application with three tenants in two locations: the tenant named
 * by {@code modelarmor.tenant.header}, or chosen by the annotation's SpEL from another header, picks the
 * template and its location for each request; an unknown tenant is refused with a 400 and a WARN line.
 */
@ExtendWith(OutputCaptureExtension.class)
class TenantGuardServletTests {

	static final String[] TENANTS = { "modelarmor.tenants.acme.template-id=strict",
			"modelarmor.tenants.acme.location=us-central1", "modelarmor.tenants.globex.template-id=strict",
			"modelarmor.tenants.globex.location=europe-west4", "modelarmor.tenants.initech.template-id=relaxed",
			"modelarmor.tenants.initech.location=europe-west4", "modelarmor.tenant.header=X-Tenant" };

	static final String QUESTION = "TENANT-WEB-Q when are you open?";

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ModelArmorAutoConfiguration.class,
				ModelArmorGuardAutoConfiguration.class, ModelArmorTenantAutoConfiguration.class))
		.withPropertyValues(ModelArmorStubs.properties(modelArmor))
		.withPropertyValues(TENANTS)
		.withUserConfiguration(ModelArmorStubs.InstantRetries.class, Web.class);

	@BeforeEach
	void answer() {
		answerEverythingClean(modelArmor);
	}

	@Test
	void theHeaderNamesTheTenantWhoseTemplateAndLocationScreenTheRequest() {
		this.runner.run((context) -> {
			MockMvc mvc = mvc(context);
			for (String tenant : List.of("acme", "globex", "initech")) {
				mvc.perform(chat("/chat", QUESTION).header("X-Tenant", tenant))
					.andExpect(status().isOk())
					.andExpect(content().string("We are open from 9 to 5."));
			}
			mvc.perform(chat("/chat", QUESTION)).andExpect(status().isOk());
		});
		assertThat(paths()).containsExactly(path("us-central1", "strict", "sanitizeUserPrompt"),
				path("us-central1", "strict", "sanitizeModelResponse"),
				path("europe-west4", "strict", "sanitizeUserPrompt"),
				path("europe-west4", "strict", "sanitizeModelResponse"),
				path("europe-west4", "relaxed", "sanitizeUserPrompt"),
				path("europe-west4", "relaxed", "sanitizeModelResponse"),
				path("us-central1", "default-template", "sanitizeUserPrompt"),
				path("us-central1", "default-template", "sanitizeModelResponse"));
	}

	@Test
	void aTenantsTemplateBlocksWhatAnotherTenantsLetsThrough() {
		modelArmor.stubFor(post(urlPathEqualTo(path("us-central1", "strict", "sanitizeUserPrompt"))).atPriority(1)
			.withRequestBody(matchingJsonPath("$.userPromptData.text", equalTo(QUESTION)))
			.willReturn(okJson(JAILBREAK)));
		this.runner.run((context) -> {
			MockMvc mvc = mvc(context);
			mvc.perform(chat("/chat", QUESTION).header("X-Tenant", "initech")).andExpect(status().isOk());
			mvc.perform(chat("/chat", QUESTION).header("X-Tenant", "acme"))
				.andExpect(status().isBadRequest())
				.andExpect(jsonPath("$.filters[0]").value("pi_and_jailbreak"));
		});
	}

	@Test
	void anOutageOfOneTenantsLocationFailsClosedWithALineNamingTheTemplate(CapturedOutput output) {
		modelArmor.stubFor(post(urlPathMatching(".*/locations/europe-west4/.*")).atPriority(1)
			.willReturn(com.github.tomakehurst.wiremock.client.WireMock.aResponse().withStatus(503)));
		this.runner.run((context) -> {
			MockMvc mvc = mvc(context);
			mvc.perform(chat("/chat", QUESTION).header("X-Tenant", "globex")).andExpect(status().isServiceUnavailable());
			mvc.perform(chat("/chat", QUESTION).header("X-Tenant", "acme")).andExpect(status().isOk());
		});
		assertThat(output.getAll()).contains("blocking it (fail-closed): method=\"TenantGuardServletTests.Chat.chat(String)\" "
				+ "phase=PROMPT").contains("template=locations/europe-west4/templates/strict");
	}

	@Test
	void anUnknownTenantIsRefusedWith400BeforeAnyCallAndAWarnLine(CapturedOutput output) {
		this.runner.run((context) -> mvc(context).perform(chat("/chat", QUESTION).header("X-Tenant", "TENANT-EVIL-9"))
			.andExpect(status().isBadRequest())
			.andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
			.andExpect(jsonPath("$.type").value("urn:modelarmor:problem:unknown-tenant"))
			.andExpect(jsonPath("$.title").value("Unknown tenant"))
			.andExpect(jsonPath("$.detail").value(org.hamcrest.Matchers.containsString("nothing was screened")))
			.andExpect(jsonPath("$.phase").value("PROMPT")));
		assertThat(modelArmor.getAllServeEvents()).isEmpty();
		assertThat(output.getAll()).containsOnlyOnce("outcome=unknown_tenant")
			.doesNotContain("TENANT-EVIL-9")
			.doesNotContain("TENANT-WEB-Q");
	}

	@Test
	void anEmptyOrBlankHeaderNamesNoTenantAsWithoutTheHeader() {
		this.runner.run((context) -> {
			MockMvc mvc = mvc(context);
			mvc.perform(chat("/chat", QUESTION).header("X-Tenant", "")).andExpect(status().isOk());
			mvc.perform(chat("/chat", QUESTION).header("X-Tenant", "   ")).andExpect(status().isOk());
			mvc.perform(chat("/chat", QUESTION).header("X-Tenant", " ", "")).andExpect(status().isOk());
		});
		assertThat(paths()).hasSize(6)
			.allSatisfy((path) -> assertThat(path).contains("/locations/us-central1/templates/default-template:"));
	}

	@Test
	void theSameTenantRepeatedIsThatTenant() {
		this.runner.run((context) -> {
			MockMvc mvc = mvc(context);
			mvc.perform(chat("/chat", QUESTION).header("X-Tenant", "globex", "globex")).andExpect(status().isOk());
			mvc.perform(chat("/chat", QUESTION).header("X-Tenant", "globex, globex", " globex"))
				.andExpect(status().isOk());
		});
		assertThat(paths()).hasSize(4)
			.allSatisfy((path) -> assertThat(path).contains("/locations/europe-west4/templates/strict:"));
	}

	@Test
	void twoDifferentTenantsAreRefusedAsAmbiguousBeforeAnyCallAndAWarnLine(CapturedOutput output) {
		this.runner.withBean(io.micrometer.core.instrument.simple.SimpleMeterRegistry.class).run((context) -> {
			MockMvc mvc = mvc(context);
			mvc.perform(chat("/chat", QUESTION).header("X-Tenant", "acme", "TENANT-EVIL-9"))
				.andExpect(status().isBadRequest())
				.andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
				.andExpect(jsonPath("$.type").value("urn:modelarmor:problem:ambiguous-tenant"))
				.andExpect(jsonPath("$.title").value("Ambiguous tenant"))
				.andExpect(jsonPath("$.status").value(400));
			mvc.perform(chat("/chat", QUESTION).header("X-Tenant", "acme,globex"))
				.andExpect(status().isBadRequest())
				.andExpect(jsonPath("$.title").value("Ambiguous tenant"));
			mvc.perform(chat("/chat", QUESTION).header("X-Tenant", "acme", "acme", "")).andExpect(status().isOk());
			assertThat(context.getBean(io.micrometer.core.instrument.MeterRegistry.class)
				.get("modelarmor.tenant.refused").tag("reason", "ambiguous_header").counter().count()).isEqualTo(2);
		});
		assertThat(paths()).containsExactly(path("us-central1", "strict", "sanitizeUserPrompt"),
				path("us-central1", "strict", "sanitizeModelResponse"));
		assertThat(output.getAll().lines().filter((line) -> line.contains("outcome=ambiguous_tenant"))).hasSize(2);
		assertThat(output.getAll()).doesNotContain("TENANT-EVIL-9").doesNotContain("TENANT-WEB-Q");
	}

	@Test
	void theAnnotationsSpelChoosesTheTemplateFromAnotherHeader() {
		this.runner.run((context) -> {
			MockMvc mvc = mvc(context);
			mvc.perform(chat("/chat-for", QUESTION).header("X-Customer", "globex")).andExpect(status().isOk());
			mvc.perform(chat("/chat-for", QUESTION).header("X-Customer", "nobody"))
				.andExpect(status().isBadRequest())
				.andExpect(jsonPath("$.title").value("Unknown tenant"));
		});
		assertThat(paths()).containsExactly(path("europe-west4", "strict", "sanitizeUserPrompt"),
				path("europe-west4", "strict", "sanitizeModelResponse"));
	}

	@Test
	void withUnknownDefaultTemplateAnUnknownTenantIsScreenedWithTheDefault() {
		this.runner.withPropertyValues("modelarmor.tenant.unknown=default-template")
			.run((context) -> mvc(context).perform(chat("/chat", QUESTION).header("X-Tenant", "hooli"))
				.andExpect(status().isOk()));
		assertThat(paths()).containsExactly(path("us-central1", "default-template", "sanitizeUserPrompt"),
				path("us-central1", "default-template", "sanitizeModelResponse"));
	}

	private static MockMvc mvc(ApplicationContext context) {
		return MockMvcBuilders.webAppContextSetup((org.springframework.web.context.WebApplicationContext) context)
			.addFilters(context.getBean(ModelArmorTenantFilter.class))
			.build();
	}

	private static org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder chat(String path,
			String message) {
		return org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post(path)
			.contentType(MediaType.TEXT_PLAIN)
			.content(message);
	}

	static String path(String location, String template, String method) {
		return "/v1/projects/" + PROJECT + "/locations/" + location + "/templates/" + template + ":" + method;
	}

	static List<String> paths() {
		return paths(modelArmor);
	}

	/** The paths of the sanitize calls a server received, in the order received. */
	static List<String> paths(WireMockExtension server) {
		List<LoggedRequest> requests = new java.util.ArrayList<>(
				server.findAll(postRequestedFor(urlPathMatching(".*:sanitize(UserPrompt|ModelResponse)"))));
		requests.sort(java.util.Comparator.comparing(LoggedRequest::getLoggedDate));
		return requests.stream().map(LoggedRequest::getUrl).toList();
	}

	@Configuration(proxyBeanMethods = false)
	@EnableWebMvc
	static class Web {

		@Bean
		Chat chat() {
			return new Chat();
		}

	}

	@RestController
	static class Chat {

		@PostMapping("/chat")
		@ModelArmorGuarded
		public String chat(@RequestBody String message) {
			return "We are open from 9 to 5.";
		}

		@PostMapping("/chat-for")
		@ModelArmorGuarded(template = "#{@modelArmorTenants.templateFor(#customer)}", prompt = "#message")
		public String chatFor(@RequestHeader("X-Customer") String customer, @RequestBody String message) {
			return "We are open from 9 to 5.";
		}

	}

}
