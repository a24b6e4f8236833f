package dev.modelarmor.ai.mcp;

import java.time.Duration;
import java.util.Map;

import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static dev.modelarmor.ai.mcp.McpServerFixtures.text;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A slow Model Armor, in real time: an answer that would take 30 s, with a 2 s retry deadline, ends the call as a
 * refusal within the deadline (the bound is loose, for a loaded machine: well under the 30 s Model Armor would
 * have taken), and the tool never runs.
 */
@SpringBootTest(classes = McpServerApp.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "server.address=127.0.0.1", "spring.ai.mcp.server.protocol=STREAMABLE",
				"modelarmor.template-check.enabled=false", "modelarmor.retry.deadline=2s",
				"modelarmor.http.read-timeout=30s",
				// the arguments' screening is the one the deadline ends (a definition's is the same call)
				"modelarmor.spring-ai.mcp-server.screen-tool-definitions=false" })
class McpServerDeadlineTests extends McpServerTests {

	@Override
	void answers() {
		modelArmor.stubFor(post(urlPathMatching(".*")).willReturn(aResponse().withFixedDelay(30_000)
			.withHeader("Content-Type", "application/json")
			.withBody("{\"sanitizationResult\": {\"filterMatchState\": \"NO_MATCH_FOUND\", \"invocationResult\": \"SUCCESS\"}}")));
	}

	@Test
	void aSlowModelArmorIsBoundedByTheDeadline() {
		long start = System.nanoTime();
		CallToolResult result = this.client.callTool(new CallToolRequest("weather", Map.of("city", "Lyon")));
		Duration took = Duration.ofNanos(System.nanoTime() - start);
		assertThat(result.isError()).isTrue();
		assertThat(text(result)).isEqualTo("Refused: the arguments of tool \"weather\" could not be screened by Model Armor.");
		assertThat(this.parcels.weatherCalls).hasValue(0);
		assertThat(took).isLessThan(Duration.ofSeconds(15));
	}

}
