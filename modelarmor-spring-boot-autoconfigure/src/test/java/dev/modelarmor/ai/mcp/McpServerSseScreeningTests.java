package dev.modelarmor.ai.mcp;

import java.util.Map;

import dev.modelarmor.guard.ModelArmorStubs;
import io.micrometer.core.instrument.MeterRegistry;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static dev.modelarmor.ai.mcp.McpServerFixtures.CARD;
import static dev.modelarmor.ai.mcp.McpServerFixtures.DEIDENTIFIED;
import static dev.modelarmor.ai.mcp.McpServerFixtures.POISON;
import static dev.modelarmor.ai.mcp.McpServerFixtures.text;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sync server over the SSE transport, with {@code on-match=deidentify} and one prompt excluded: a card number
 * in a text result or a text resource leaves de-identified, one in structured content still blocks, poisoned
 * arguments still block, and the excluded prompt's calls reach Model Armor not at all.
 */
@SpringBootTest(classes = { McpServerApp.class, ModelArmorStubs.InstantRetries.class },
		webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "server.address=127.0.0.1", "spring.ai.mcp.server.protocol=SSE",
				"modelarmor.template-check.enabled=false", "modelarmor.spring-ai.mcp-server.on-match=deidentify",
				"modelarmor.spring-ai.mcp-server.excluded-prompts=greeting" })
class McpServerSseScreeningTests extends McpServerTests {

	@Autowired
	MeterRegistry meters;

	@Override
	McpSyncClient connect(int port) {
		return McpServerFixtures.sse(port);
	}

	@Test
	void aCardNumberInATextResultLeavesDeidentified() {
		this.parcels.weather = "Card " + CARD;
		CallToolResult result = this.client.callTool(new CallToolRequest("weather", Map.of("city", "Lyon")));
		assertThat(result.isError()).isNotEqualTo(Boolean.TRUE);
		assertThat(text(result)).isEqualTo(DEIDENTIFIED);
	}

	@Test
	void aCardNumberInATextResourceLeavesDeidentified() {
		this.parcels.readme = "Card " + CARD;
		McpSchema.ReadResourceResult readme = this.client.readResource(new McpSchema.ReadResourceRequest("docs://readme"));
		assertThat(((McpSchema.TextResourceContents) readme.contents().get(0)).text()).isEqualTo(DEIDENTIFIED);
		assertThat(this.meters.counter("modelarmor.mcp.server.screenings", "part", "resource", "name", "docs://readme",
				"outcome", "deidentified").count()).isEqualTo(1);
	}

	@Test
	void aCardNumberInStructuredContentStillBlocks() {
		this.parcels.statementCard = CARD;
		CallToolResult result = this.client.callTool(new CallToolRequest("statement", Map.of("customer", "c-1")));
		assertThat(result.isError()).isTrue();
		assertThat(text(result)).contains("[sdp]").doesNotContain("4111");
	}

	@Test
	void poisonedArgumentsAreRefusedBeforeTheToolRuns() {
		CallToolResult result = this.client.callTool(new CallToolRequest("weather", Map.of("city", POISON)));
		assertThat(result.isError()).isTrue();
		assertThat(this.parcels.weatherCalls).hasValue(0);
	}

	@Test
	void anExcludedPromptIsNotScreenedNorAreItsArguments() {
		this.parcels.greeting = POISON;
		McpSchema.GetPromptResult prompt = this.client
			.getPrompt(new McpSchema.GetPromptRequest("greeting", Map.of("name", "Ada " + POISON)));
		assertThat(((McpSchema.TextContent) prompt.messages().get(0).content()).text()).startsWith(POISON)
			.endsWith("Dear Ada " + POISON + ".");
		modelArmor.verify(0, postRequestedFor(urlPathMatching(".*")));
	}

}
