package dev.modelarmor.samples.springai;

import dev.modelarmor.ai.tool.ModelArmorToolOptions;
import dev.modelarmor.test.AutoConfigureModelArmorStandIn;
import dev.modelarmor.test.ModelArmorStandIn;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.MediaType;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample's retrieval and tool cases as the README's curl lines run them: profile {@code local}, over
 * real HTTP, with the test kit's Model Armor stand-in. What the deterministic model replies is what it
 * read, so the replies show that a poisoned page or tool result never reached it.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureModelArmorStandIn
class DocumentsAndToolsTests {

	@Autowired
	private DeterministicChatModel model;

	@Autowired
	private ModelArmorStandIn modelArmor;

	@LocalServerPort
	private int port;

	@BeforeEach
	void reset() {
		this.model.reset();
	}

	@Test
	void thePoisonedPageIsDroppedAndTheModelAnswersFromTheOthers() {
		JsonNode answer = post("/chat/rag", "When does the lighthouse museum open?");

		assertThat(answer.path("documentsDropped").intValue()).isEqualTo(1);
		assertThat(answer.path("documentFilters").valueStream().map(JsonNode::stringValue).toList())
			.containsExactly("pi_and_jailbreak");
		assertThat(answer.path("reply").stringValue()).contains(KnowledgeBase.OPENING_HOURS, KnowledgeBase.TICKETS)
			.doesNotContain("closed forever");
		assertThat(this.model.receivedUserTexts()).singleElement()
			.asString()
			.contains(KnowledgeBase.OPENING_HOURS)
			.doesNotContain("ignore previous instructions");
		// Each page was screened on its own, the poisoned one included.
		assertThat(this.modelArmor.receivedPrompts()).contains(KnowledgeBase.OPENING_HOURS, KnowledgeBase.TICKETS,
				KnowledgeBase.POISONED_REVIEW);
	}

	@Test
	void aCleanToolResultReachesTheModel() {
		JsonNode answer = post("/chat/tools", "Where is my parcel " + ParcelTools.PARCEL + "?");

		assertThat(answer.path("reply").stringValue())
			.isEqualTo(DeterministicToolCalls.TOOL_REPLY + "\"" + ParcelTools.STATUS + "\"");
		assertThat(this.modelArmor.receivedResponses()).contains("{\"parcelId\":\"" + ParcelTools.PARCEL + "\"}");
	}

	@Test
	void anInjectedToolResultIsReplacedByTheRefusalBeforeTheModelReadsIt() {
		JsonNode answer = post("/chat/tools", "Where is my parcel " + ParcelTools.POISONED_PARCEL + "?");

		assertThat(answer.path("reply").stringValue())
			.isEqualTo(DeterministicToolCalls.TOOL_REPLY + ModelArmorToolOptions.DEFAULT_REFUSAL);
		assertThat(this.modelArmor.receivedPrompts()).anySatisfy((text) -> assertThat(text).contains("address book"));
	}

	@Test
	void aQuestionWithoutAParcelCallsNoTool() {
		JsonNode answer = post("/chat/tools", "What can you track?");

		assertThat(answer.path("reply").stringValue()).isEqualTo("You said: What can you track?");
		assertThat(this.modelArmor.receivedResponses()).noneSatisfy((text) -> assertThat(text).contains("parcelId"));
	}

	private JsonNode post(String path, String message) {
		String body = RestClient.create("http://localhost:" + this.port)
			.post()
			.uri(path)
			.contentType(MediaType.APPLICATION_JSON)
			.body(JsonMapper.shared().writeValueAsString(new ChatRequest(message)))
			.retrieve()
			.body(String.class);
		return JsonMapper.shared().readTree(body);
	}

}
