package dev.modelarmor.ai.mcp;

import java.util.Map;

import dev.modelarmor.guard.ModelArmorStubs;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

import static dev.modelarmor.ai.mcp.McpServerFixtures.CARD;
import static dev.modelarmor.ai.mcp.McpServerFixtures.POISON;
import static dev.modelarmor.ai.mcp.McpServerFixtures.text;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The same application as an async MCP server ({@code spring.ai.mcp.server.type=ASYNC}, streamable HTTP): Spring
 * AI's async tool specifications are screened without blocking, with the same answers as the sync server's.
 */
@SpringBootTest(classes = { McpServerApp.class, ModelArmorStubs.InstantRetries.class },
		webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "server.address=127.0.0.1", "spring.ai.mcp.server.protocol=STREAMABLE",
				"spring.ai.mcp.server.type=ASYNC", "modelarmor.template-check.enabled=false" })
class McpServerAsyncScreeningTests extends McpServerTests {

	@Test
	void aCleanCallRuns() {
		CallToolResult result = this.client.callTool(new CallToolRequest("weather", Map.of("city", "Lyon")));
		assertThat(result.isError()).isNotEqualTo(Boolean.TRUE);
		assertThat(text(result)).contains("Sunny");
		assertThat(this.parcels.weatherCalls).hasValue(1);
	}

	@Test
	void poisonedArgumentsAreRefusedBeforeTheToolRuns() {
		CallToolResult result = this.client.callTool(new CallToolRequest("weather", Map.of("city", POISON)));
		assertThat(result.isError()).isTrue();
		assertThat(text(result)).contains("[pi_and_jailbreak]").doesNotContain("MCP-SRV-POISON");
		assertThat(this.parcels.weatherCalls).hasValue(0);
	}

	@Test
	void anExfiltratingResultIsBlocked() {
		this.parcels.weather = "Card " + CARD;
		CallToolResult result = this.client.callTool(new CallToolRequest("weather", Map.of("city", "Lyon")));
		assertThat(result.isError()).isTrue();
		assertThat(text(result)).contains("[sdp]").doesNotContain("4111");
	}

	@Test
	void promptsAndResourcesOfTheAsyncServerAreScreened() {
		McpServerFixtures.assertPromptsAndResourcesAreScreened(this.client, this.parcels);
	}

	@Test
	void poisonedPromptArgumentsAreRefusedBeforeThePromptRuns() {
		McpServerFixtures.assertPoisonedPromptArgumentsAreRefusedBeforeThePromptRuns(this.client, this.parcels);
	}

	@Test
	void modelArmorDownFailsClosed() {
		ModelArmorStubs.failEverything(modelArmor);
		CallToolResult result = this.client.callTool(new CallToolRequest("weather", Map.of("city", "Lyon")));
		assertThat(result.isError()).isTrue();
		assertThat(this.parcels.weatherCalls).hasValue(0);
	}

}
