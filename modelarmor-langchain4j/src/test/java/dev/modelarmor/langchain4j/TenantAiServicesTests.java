package dev.modelarmor.langchain4j;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import dev.langchain4j.guardrail.InputGuardrailException;
import dev.langchain4j.invocation.InvocationParameters;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.rag.DefaultRetrievalAugmentor;
import dev.langchain4j.rag.content.Content;
import dev.langchain4j.rag.content.retriever.ContentRetriever;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.UserMessage;
import dev.modelarmor.screening.MatchAction;
import dev.modelarmor.screening.ModelArmorScreening;
import dev.modelarmor.screening.ModelArmorTenant;
import dev.modelarmor.screening.ModelArmorInputRejectedException;
import dev.modelarmor.test.AutoConfigureModelArmorStandIn;
import dev.modelarmor.test.ModelArmorStandIn;
import dev.modelarmor.test.ReceivedRequest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * One application, two tenants with their own template in their own location, through real LangChain4j AI
 * services with the auto-configured guardrails, against the test kit's Model Armor stand-in over HTTP on loopback:
 * every screening of a call (prompt, retrieved content, tool specification, tool call, tool result, answer) goes
 * to its tenant's template in its tenant's location, as the stand-in saw the request paths.
 */
@SpringBootTest(classes = TenantAiServicesTests.App.class,
		properties = { "modelarmor.tenants.acme.template-id=acme-strict", "modelarmor.tenants.acme.location=us-central1",
				"modelarmor.tenants.globex.template-id=globex-relaxed",
				"modelarmor.tenants.globex.location=europe-west4" })
@AutoConfigureModelArmorStandIn
class TenantAiServicesTests {

	private static final String ACME = "us-central1/acme-strict";

	private static final String GLOBEX = "europe-west4/globex-relaxed";

	@Autowired
	ModelArmorStandIn modelArmor;

	@Autowired
	ModelArmorInputGuardrail inputGuardrail;

	@Autowired
	ModelArmorOutputGuardrail outputGuardrail;

	@Autowired
	ModelArmorContentAggregator contentAggregator;

	@Autowired
	ModelArmorScreening screening;

	@BeforeEach
	void reset() {
		this.modelArmor.reset();
	}

	@Test
	void everyScreeningOfACallGoesToItsTenantsTemplateInItsLocation() {
		for (String tenant : List.of("acme", "globex")) {
			ScriptedModels.Chat model = new ScriptedModels.Chat(
					ScriptedModels.toolCall("call-" + tenant, "weather", "{\"city\":\"Lyon-" + tenant + "\"}"),
					ScriptedModels.text("Answer for " + tenant));
			TravelTools tools = new TravelTools();
			tools.weatherAnswer = "Weather for " + tenant;
			TenantAssistant assistant = withToolsAndRetrieval(model, tools, TenantSource.INVOCATION_PARAMETER);

			String answer = assistant.chat("Question of " + tenant, InvocationParameters.from(ModelArmorTenant.KEY, tenant));

			assertThat(answer).isEqualTo("Answer for " + tenant);
			assertThat(tools.runs).containsExactly("weather Lyon-" + tenant);
		}
		assertThat(templatesOf("Question of acme")).containsExactly(ACME);
		assertThat(templatesOf("Retrieved for acme")).containsExactly(ACME);
		assertThat(templatesOf("Lyon-acme")).containsExactly(ACME);
		assertThat(templatesOf("Weather for acme")).containsExactly(ACME);
		assertThat(templatesOf("Answer for acme")).containsExactly(ACME);
		assertThat(templatesOf("Question of globex")).containsExactly(GLOBEX);
		assertThat(templatesOf("Retrieved for globex")).containsExactly(GLOBEX);
		assertThat(templatesOf("Lyon-globex")).containsExactly(GLOBEX);
		assertThat(templatesOf("Weather for globex")).containsExactly(GLOBEX);
		assertThat(templatesOf("Answer for globex")).containsExactly(GLOBEX);
		// LangChain4j tells a chat request transformer the memory id only: the first request's tool specification
		// is screened with the default template, the one after the tool ran with the template of its tool call
		assertThat(templatesOf("Tells the weather of a city")).contains(ACME, GLOBEX).hasSize(3);
		assertThat(this.modelArmor.received()).filteredOn((request) -> !request.text().contains("Tells the weather"))
			.allSatisfy((request) -> assertThat(request.location() + "/" + request.template()).isIn(ACME, GLOBEX));
	}

	@Test
	void aTenantCanBeTheChatMemoryId() {
		for (String tenant : List.of("acme", "globex")) {
			ScriptedModels.Chat model = new ScriptedModels.Chat(
					ScriptedModels.toolCall("mem-" + tenant, "weather", "{\"city\":\"Memory-" + tenant + "\"}"),
					ScriptedModels.text("Remembered for " + tenant));
			TravelTools tools = new TravelTools();
			tools.weatherAnswer = "Weather by memory for " + tenant;
			MemoryAssistant assistant = byMemory(model, tools);

			assertThat(assistant.chat(tenant, "Memory question of " + tenant)).isEqualTo("Remembered for " + tenant);
		}
		for (String tenant : List.of("acme", "globex")) {
			String expected = tenant.equals("acme") ? ACME : GLOBEX;
			assertThat(templatesOf("Memory question of " + tenant)).containsExactly(expected);
			assertThat(templatesOf("Memory-" + tenant)).containsExactly(expected);
			assertThat(templatesOf("Weather by memory for " + tenant)).containsExactly(expected);
			assertThat(templatesOf("Remembered for " + tenant)).containsExactly(expected);
		}
		assertThat(templatesOf("Tells the weather of a city")).containsExactlyInAnyOrder(ACME, GLOBEX);
	}

	@Test
	void anUnknownTenantNeverReachesTheModelNorModelArmor() {
		ScriptedModels.Chat model = new ScriptedModels.Chat(ScriptedModels.text("unused"));
		TravelTools tools = new TravelTools();
		TenantAssistant assistant = withToolsAndRetrieval(model, tools, TenantSource.INVOCATION_PARAMETER);

		assertThatThrownBy(() -> assistant.chat("Question of hooli", InvocationParameters.from(ModelArmorTenant.KEY,
				"hooli")))
			.isInstanceOf(InputGuardrailException.class)
			.hasMessageNotContaining("hooli")
			.hasCauseInstanceOf(ModelArmorInputRejectedException.class);

		assertThat(model.requests).isEmpty();
		assertThat(this.modelArmor.received()).isEmpty();
	}

	@Test
	void aCallThatNamesNoTenantIsScreenedWithTheDefaultTemplate() {
		ScriptedModels.Chat model = new ScriptedModels.Chat(ScriptedModels.text("Default answer"));
		TravelTools tools = new TravelTools();
		TenantAssistant assistant = withToolsAndRetrieval(model, tools, TenantSource.INVOCATION_PARAMETER);

		assertThat(assistant.chat("Question of nobody", new InvocationParameters())).isEqualTo("Default answer");

		Set<String> templates = templatesOf("Question of nobody");
		assertThat(templates).hasSize(1).doesNotContain(ACME, GLOBEX);
		assertThat(templatesOf("Default answer")).isEqualTo(templates);
	}

	private TenantAssistant withToolsAndRetrieval(ScriptedModels.Chat model, TravelTools tools, TenantSource source) {
		// tool guardrails of the test's own: they remember the decisions of what they screened
		ModelArmorToolOutputGuardrail toolOutput = new ModelArmorToolOutputGuardrail(this.screening, null,
				ModelArmorToolOutputGuardrail.DEFAULT_REFUSAL, source);
		ContentRetriever retriever = (query) -> List.of(Content.from("Retrieved for "
				+ query.metadata().invocationParameters().get(ModelArmorTenant.KEY)));
		return AiServices.builder(TenantAssistant.class)
			.chatModel(model)
			.tools(tools)
			.inputGuardrails(this.inputGuardrail)
			.outputGuardrails(this.outputGuardrail)
			.beforeToolExecution(new ModelArmorToolInputGuardrail(this.screening, null, MatchAction.BLOCK, toolOutput,
					source))
			.chatRequestTransformer(toolOutput)
			.retrievalAugmentor(DefaultRetrievalAugmentor.builder()
				.contentRetriever(retriever)
				.contentAggregator(this.contentAggregator)
				.build())
			.build();
	}

	private MemoryAssistant byMemory(ScriptedModels.Chat model, TravelTools tools) {
		ModelArmorToolOutputGuardrail toolOutput = new ModelArmorToolOutputGuardrail(this.screening, null,
				ModelArmorToolOutputGuardrail.DEFAULT_REFUSAL, TenantSource.CHAT_MEMORY_ID);
		return AiServices.builder(MemoryAssistant.class)
			.chatModel(model)
			.tools(tools)
			.chatMemoryProvider((id) -> MessageWindowChatMemory.withMaxMessages(10))
			.inputGuardrails(new ModelArmorInputGuardrail(this.screening, null, MatchAction.BLOCK,
					TenantSource.CHAT_MEMORY_ID))
			.outputGuardrails(new ModelArmorOutputGuardrail(this.screening, null,
					ModelArmorOutputGuardrail.OnMatch.BLOCK, TenantSource.CHAT_MEMORY_ID))
			.beforeToolExecution(new ModelArmorToolInputGuardrail(this.screening, null, MatchAction.BLOCK, toolOutput,
					TenantSource.CHAT_MEMORY_ID))
			.chatRequestTransformer(toolOutput::screen)
			.build();
	}

	/** Where the stand-in screened the requests whose text holds a marker: location/template. */
	private Set<String> templatesOf(String marker) {
		return this.modelArmor.received()
			.stream()
			.filter((request) -> request.text().contains(marker))
			.map((ReceivedRequest request) -> request.location() + "/" + request.template())
			.collect(Collectors.toSet());
	}

	interface TenantAssistant {

		String chat(@UserMessage String message, InvocationParameters parameters);

	}

	interface MemoryAssistant {

		String chat(@MemoryId String tenant, @UserMessage String message);

	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class App {

	}

}
