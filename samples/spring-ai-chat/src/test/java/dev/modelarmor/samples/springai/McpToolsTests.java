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
 * The sample's MCP case as the README's curl lines run it: the carrier's MCP server inside the app, Spring
 * AI's MCP client connected to it over loopback, the test kit's Model Armor stand-in. The deterministic
 * model's replies show which tools reached it and what it read.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureModelArmorStandIn
class McpToolsTests {

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
	void theToolWithThePoisonedDescriptionIsWithheldFromTheModel() {
		String reply = post("Which tools can you use?");

		assertThat(reply).startsWith(DeterministicToolCalls.TOOLS_REPLY)
			.contains(CarrierMcpServer.TRACK)
			.doesNotContain(CarrierMcpServer.NOTES);
	}

	@Test
	void aToolDefinitionIsScreenedOnceNotOnEveryCall() {
		post("Which tools can you use?");
		this.modelArmor.reset();

		assertThat(post("Which tools can you use?")).doesNotContain(CarrierMcpServer.NOTES);
		assertThat(this.modelArmor.receivedPrompts()).containsExactly("Which tools can you use?");
	}

	@Test
	void aCleanMcpResultReachesTheModel() {
		String reply = post("Where is my parcel " + ParcelTools.PARCEL + "?");

		assertThat(reply).startsWith(DeterministicToolCalls.TOOL_REPLY).contains(ParcelTools.STATUS);
		assertThat(this.modelArmor.receivedResponses()).contains("{\"parcelId\":\"" + ParcelTools.PARCEL + "\"}");
	}

	@Test
	void anInjectedMcpResultIsReplacedByTheRefusalBeforeTheModelReadsIt() {
		String reply = post("Where is my parcel " + ParcelTools.POISONED_PARCEL + "?");

		assertThat(reply).isEqualTo(DeterministicToolCalls.TOOL_REPLY + ModelArmorToolOptions.DEFAULT_REFUSAL);
	}

	private String post(String message) {
		String body = RestClient.create("http://localhost:" + this.port)
			.post()
			.uri("/chat/mcp")
			.contentType(MediaType.APPLICATION_JSON)
			.body(JsonMapper.shared().writeValueAsString(new ChatRequest(message)))
			.retrieve()
			.body(String.class);
		JsonNode answer = JsonMapper.shared().readTree(body);
		return answer.path("reply").stringValue();
	}

}
