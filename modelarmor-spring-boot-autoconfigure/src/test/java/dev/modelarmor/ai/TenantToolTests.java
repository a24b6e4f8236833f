package dev.modelarmor.ai;

import java.util.List;
import java.util.Map;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.modelarmor.ai.tool.ModelArmorToolOptions;
import dev.modelarmor.autoconfigure.ModelArmorTenantAutoConfiguration;
import dev.modelarmor.screening.ModelArmorTenant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.function.FunctionToolCallback;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;

import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static dev.modelarmor.ai.TenantAdvisorTests.path;
import static dev.modelarmor.guard.ModelArmorStubs.answerEverythingClean;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tool calls and results screened with the template of the tenant the tool context names, in its location.
 */
class TenantToolTests {

	private static final String DESCRIPTION = "TENANT-TOOL-DEF the forecast of a city";

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	private final ApplicationContextRunner runner = SpringAiFixtures.toolsRunner(modelArmor, ToolScreeningTests.Model.class)
		.withConfiguration(AutoConfigurations.of(ModelArmorTenantAutoConfiguration.class))
		.withPropertyValues(TenantAdvisorTests.TENANTS);

	@BeforeEach
	void answer() {
		answerEverythingClean(modelArmor);
	}

	@Test
	void eachTenantsToolCallAndResultAreScreenedWithItsTemplateInItsLocation() {
		this.runner.run((context) -> {
			for (String tenant : List.of("acme", "globex", "initech")) {
				assertThat(ask(context, tenant)).isEqualTo(ToolCallingChatModel.ANSWER);
			}
		});
		assertThat(toolCalls()).containsExactly(path("us-central1", "strict", "sanitizeModelResponse"),
				path("europe-west4", "strict", "sanitizeModelResponse"),
				path("europe-west4", "relaxed", "sanitizeModelResponse"));
		assertThat(toolResults()).containsExactly(path("us-central1", "strict", "sanitizeUserPrompt"),
				path("europe-west4", "strict", "sanitizeUserPrompt"), path("europe-west4", "relaxed", "sanitizeUserPrompt"));
	}

	@Test
	void eachTenantsToolDefinitionsAreScreenedWithItsTemplateInItsLocationOnceEach() {
		this.runner.run((context) -> {
			for (String tenant : List.of("acme", "globex", "initech", "acme", "globex")) {
				assertThat(ask(context, tenant)).isEqualTo(ToolCallingChatModel.ANSWER);
			}
		});
		// the same definition, one verdict per template and location: a tenant never reuses another's
		assertThat(definitions()).containsExactly(path("us-central1", "strict", "sanitizeUserPrompt"),
				path("europe-west4", "strict", "sanitizeUserPrompt"), path("europe-west4", "relaxed", "sanitizeUserPrompt"));
	}

	@Test
	void aToolDefinitionBlockedForOneTenantIsStillOfferedToAnother() {
		modelArmor.stubFor(com.github.tomakehurst.wiremock.client.WireMock
			.post(urlPathMatching(".*/locations/europe-west4/templates/relaxed:sanitizeUserPrompt"))
			.withRequestBody(matchingJsonPath("$.userPromptData.text",
					com.github.tomakehurst.wiremock.client.WireMock.containing(DESCRIPTION)))
			.willReturn(com.github.tomakehurst.wiremock.client.WireMock.okJson(dev.modelarmor.guard.ModelArmorStubs.JAILBREAK)));
		this.runner.run((context) -> {
			ToolCallingChatModel model = context.getBean(ToolCallingChatModel.class);
			ask(context, "initech");
			ask(context, "acme");
			// initech's two requests were offered no tool, acme's two the weather tool
			assertThat(model.offered()).containsExactly(List.of(), List.of(), List.of("weather"), List.of("weather"));
		});
	}

	@Test
	void anUnknownTenantsToolDoesNotRunAndItsResultNeverReachesTheModel() {
		this.runner.run((context) -> {
			ToolScreeningTests.Weather weather = new ToolScreeningTests.Weather(ToolScreeningTests.WEATHER);
			chatClient(context).prompt().user(ToolScreeningTests.QUESTION).tools(weather.callback())
				.toolContext(Map.of(ModelArmorTenant.KEY, "hooli")).call().content();
			assertThat(weather.runs).hasValue(0);
			assertThat(context.getBean(ToolCallingChatModel.class).toolResults())
				.containsExactly(ModelArmorToolOptions.DEFAULT_REFUSAL);
		});
		assertThat(toolCalls()).isEmpty();
	}

	private static String ask(ApplicationContext context, String tenant) {
		ToolCallback weather = FunctionToolCallback
			.builder("weather", (ToolScreeningTests.City city) -> ToolScreeningTests.WEATHER)
			.description(DESCRIPTION)
			.inputType(ToolScreeningTests.City.class)
			.build();
		return chatClient(context).prompt()
			.user(ToolScreeningTests.QUESTION)
			.tools(weather)
			.toolContext(Map.of(ModelArmorTenant.KEY, tenant))
			.call()
			.content();
	}

	private static ChatClient chatClient(ApplicationContext context) {
		return context.getBean(ChatClient.Builder.class).build();
	}

	/** The paths that screened the tool's arguments, in order. */
	private static List<String> toolCalls() {
		return sorted(modelArmor.findAll(postRequestedFor(urlPathMatching(".*:sanitizeModelResponse"))
			.withRequestBody(matchingJsonPath("$.modelResponseData.text", equalTo(ToolScreeningTests.ARGUMENTS)))));
	}

	/** The paths that screened the tool's result, in order. */
	private static List<String> toolResults() {
		return sorted(modelArmor.findAll(postRequestedFor(urlPathMatching(".*:sanitizeUserPrompt"))
			.withRequestBody(matchingJsonPath("$.userPromptData.text", equalTo("\"" + ToolScreeningTests.WEATHER + "\"")))));
	}

	/** The paths that screened the tool's definition, in order. */
	private static List<String> definitions() {
		return sorted(modelArmor.findAll(postRequestedFor(urlPathMatching(".*:sanitizeUserPrompt"))
			.withRequestBody(matchingJsonPath("$.userPromptData.text",
					com.github.tomakehurst.wiremock.client.WireMock.containing(DESCRIPTION)))));
	}

	private static List<String> sorted(List<LoggedRequest> requests) {
		List<LoggedRequest> ordered = new java.util.ArrayList<>(requests);
		ordered.sort(java.util.Comparator.comparing(LoggedRequest::getLoggedDate));
		return ordered.stream().map(LoggedRequest::getUrl).toList();
	}

}
