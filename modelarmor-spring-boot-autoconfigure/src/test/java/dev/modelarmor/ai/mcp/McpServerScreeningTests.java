package dev.modelarmor.ai.mcp;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

import dev.modelarmor.guard.ModelArmorStubs;
import io.micrometer.core.instrument.MeterRegistry;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static dev.modelarmor.ai.mcp.McpServerFixtures.CARD;
import static dev.modelarmor.ai.mcp.McpServerFixtures.POISON;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * An application serving tools, a prompt and resources with Spring AI's MCP server starter (sync, streamable HTTP,
 * Spring MVC on a real Tomcat), called by the MCP Java SDK's own client over HTTP, with WireMock playing Model
 * Armor: the arguments of a call are screened before the tool runs, its result before it leaves, prompts and
 * resources likewise, and every refusal is an answer the client reads, naming the filters, never the content.
 */
@SpringBootTest(classes = { McpServerApp.class, ModelArmorStubs.InstantRetries.class },
		webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "server.address=127.0.0.1", "spring.ai.mcp.server.protocol=STREAMABLE",
				"modelarmor.template-check.enabled=false",
				"modelarmor.tenants.acme.template-id=acme-template",
				"modelarmor.tenants.acme.location=" + ModelArmorStubs.LOCATION, "modelarmor.tenant.header=X-Tenant" })
@ExtendWith(OutputCaptureExtension.class)
class McpServerScreeningTests extends McpServerTests {

	@Autowired
	MeterRegistry meters;

	@Test
	void aCleanCallRunsTheToolAndItsScreenedResultLeaves() {
		CallToolResult result = this.client.callTool(new CallToolRequest("weather", Map.of("city", "Lyon")));
		assertThat(result.isError()).isNotEqualTo(Boolean.TRUE);
		assertThat(text(result)).contains("Sunny, 24 degrees.");
		assertThat(this.parcels.weatherCalls).hasValue(1);
		modelArmor.verify(1, postRequestedFor(urlPathEqualTo(ModelArmorStubs.promptPath()))
			.withRequestBody(matchingJsonPath("$.userPromptData.text", containing("Lyon"))));
		modelArmor.verify(1, postRequestedFor(urlPathEqualTo(ModelArmorStubs.responsePath()))
			.withRequestBody(matchingJsonPath("$.modelResponseData.text", containing("Sunny, 24 degrees."))));
	}

	@Test
	void poisonedArgumentsAreRefusedBeforeTheToolRuns(CapturedOutput output) {
		CallToolResult result = this.client.callTool(new CallToolRequest("weather", Map.of("city", POISON)));
		assertThat(result.isError()).isTrue();
		assertThat(text(result)).contains("Refused by Model Armor")
			.contains("arguments of tool \"weather\"")
			.contains("[pi_and_jailbreak]")
			.doesNotContain("MCP-SRV-POISON");
		assertThat(this.parcels.weatherCalls).hasValue(0);
		assertThat(this.meters.counter("modelarmor.mcp.server.screenings", "part", "tool_arguments", "name", "weather",
				"outcome", "refused").count()).isEqualTo(1);
		assertThat(output.getAll()).contains("method=\"MCP tool weather\"").doesNotContain("MCP-SRV-POISON");
	}

	@Test
	void anExfiltratingResultIsBlockedAfterTheToolRan() {
		this.parcels.weather = "Sunny. Card " + CARD;
		CallToolResult result = this.client.callTool(new CallToolRequest("weather", Map.of("city", "Lyon")));
		assertThat(result.isError()).isTrue();
		assertThat(text(result)).contains("result of tool \"weather\"").contains("[sdp]").doesNotContain("4111");
		assertThat(this.parcels.weatherCalls).hasValue(1);
	}

	@Test
	void aCardNumberInStructuredContentIsBlockedToo() {
		this.parcels.statementCard = CARD;
		CallToolResult result = this.client.callTool(new CallToolRequest("statement", Map.of("customer", "c-1")));
		assertThat(result.isError()).isTrue();
		assertThat(text(result)).contains("[sdp]").doesNotContain("4111");
		assertThat(result.structuredContent()).isNull();
	}

	@Test
	void aToolWhoseDefinitionIsPoisonedNeverRuns() {
		CallToolResult result = this.client.callTool(new CallToolRequest("notes", Map.of("text", "hello")));
		assertThat(result.isError()).isTrue();
		assertThat(text(result)).isEqualTo("Refused: the definition of tool \"notes\" did not pass Model Armor's screening.");
		assertThat(this.parcels.notesCalls).hasValue(0);
		assertThat(this.meters.counter("modelarmor.mcp.server.screenings", "part", "tool_definition", "name", "notes",
				"outcome", "refused").count()).isEqualTo(1);
	}

	@Test
	void aHugeResultIsRefusedUnscreenedAndTheAnswerStaysSmall() {
		this.parcels.weather = "x".repeat(5 * 1024 * 1024);
		CallToolResult result = this.client.callTool(new CallToolRequest("weather", Map.of("city", "Lyon")));
		assertThat(result.isError()).isTrue();
		assertThat(text(result)).contains("did not accept the result of tool \"weather\"").hasSizeLessThan(300);
	}

	@Test
	void theTenantInTheRequestsMetadataChoosesItsTemplate() {
		CallToolRequest request = CallToolRequest.builder("weather")
			.arguments(Map.of("city", "Lyon"))
			.meta(Map.of("modelarmor.tenant", "acme"))
			.build();
		CallToolResult result = this.client.callTool(request);
		assertThat(result.isError()).isNotEqualTo(Boolean.TRUE);
		modelArmor.verify(1, postRequestedFor(urlPathEqualTo(ModelArmorStubs.path("acme-template", "sanitizeUserPrompt"))));
		modelArmor.verify(1,
				postRequestedFor(urlPathEqualTo(ModelArmorStubs.path("acme-template", "sanitizeModelResponse"))));
	}

	@Test
	void theTenantInTheTransportsHeaderChoosesItsTemplateAndWinsOverTheMetadata() {
		McpSyncClient tenantClient = McpClient
			.sync(HttpClientStreamableHttpTransport.builder("http://127.0.0.1:" + this.port)
				.endpoint("/mcp")
				.requestBuilder(java.net.http.HttpRequest.newBuilder().header("X-Tenant", "acme"))
				.build())
			.requestTimeout(Duration.ofSeconds(30))
			.build();
		try {
			tenantClient.initialize();
			CallToolRequest request = CallToolRequest.builder("weather")
				.arguments(Map.of("city", "Lyon"))
				.meta(Map.of("modelarmor.tenant", "stranger"))
				.build();
			CallToolResult result = tenantClient.callTool(request);
			assertThat(result.isError()).isNotEqualTo(Boolean.TRUE);
			// the arguments; the tool's definition is screened with the tenant's template too, once
			modelArmor.verify(1,
					postRequestedFor(urlPathEqualTo(ModelArmorStubs.path("acme-template", "sanitizeUserPrompt")))
						.withRequestBody(containing("Lyon")));
		}
		finally {
			tenantClient.closeGracefully();
		}
	}

	@Test
	void anUndeclaredTenantIsRefusedAndTheToolDoesNotRun() {
		CallToolRequest request = CallToolRequest.builder("weather")
			.arguments(Map.of("city", "Lyon"))
			.meta(Map.of("modelarmor.tenant", "stranger"))
			.build();
		CallToolResult result = this.client.callTool(request);
		assertThat(result.isError()).isTrue();
		assertThat(this.parcels.weatherCalls).hasValue(0);
	}

	@Test
	void modelArmorDownFailsClosedAndTheToolDoesNotRun() {
		ModelArmorStubs.failEverything(modelArmor);
		CallToolResult result = this.client.callTool(new CallToolRequest("weather", Map.of("city", "Lyon")));
		assertThat(result.isError()).isTrue();
		assertThat(text(result)).contains("could not be screened").doesNotContain("Lyon").doesNotContain("503");
		assertThat(this.parcels.weatherCalls).hasValue(0);
	}

	@Test
	void aPoisonedPromptIsAnErrorNamingTheFilters() {
		assertThat(this.client.getPrompt(new McpSchema.GetPromptRequest("greeting", Map.of())).messages())
			.singleElement()
			.satisfies((message) -> assertThat(((McpSchema.TextContent) message.content()).text())
				.isEqualTo("Hello, how can I help?"));
		this.parcels.greeting = POISON;
		assertThatExceptionOfType(McpError.class)
			.isThrownBy(() -> this.client.getPrompt(new McpSchema.GetPromptRequest("greeting", Map.of())))
			.withMessageContaining("prompt \"greeting\"")
			.withMessageContaining("[pi_and_jailbreak]")
			.withMessageNotContaining("MCP-SRV-POISON");
	}

	@Test
	void poisonedPromptArgumentsAreRefusedBeforeThePromptRuns() {
		McpServerFixtures.assertPoisonedPromptArgumentsAreRefusedBeforeThePromptRuns(this.client, this.parcels);
	}

	@Test
	void resourcesAreScreenedTextAndImagesAlikeAndAudioIsRefusedUnscreened() {
		McpSchema.ReadResourceResult readme = this.client.readResource(new McpSchema.ReadResourceRequest("docs://readme"));
		assertThat(((McpSchema.TextResourceContents) readme.contents().get(0)).text()).contains("two days");
		McpSchema.ReadResourceResult logo = this.client.readResource(new McpSchema.ReadResourceRequest("docs://logo"));
		assertThat(logo.contents()).singleElement().isInstanceOf(McpSchema.BlobResourceContents.class);
		modelArmor.verify(1, postRequestedFor(urlPathEqualTo(ModelArmorStubs.responsePath()))
			.withRequestBody(matchingJsonPath("$.modelResponseData.byteItem.byteDataType", containing("IMAGE"))));
		assertThatExceptionOfType(McpError.class)
			.isThrownBy(() -> this.client.readResource(new McpSchema.ReadResourceRequest("docs://jingle")))
			.withMessageContaining("resource \"docs://jingle\"");
		this.parcels.readme = "Call us. Card " + CARD;
		assertThatExceptionOfType(McpError.class)
			.isThrownBy(() -> this.client.readResource(new McpSchema.ReadResourceRequest("docs://readme")))
			.withMessageContaining("[sdp]")
			.withMessageNotContaining("4111");
	}

	@Test
	void argumentsThatAreNoJsonObjectNeverRunTheTool() throws Exception {
		HttpClient http = HttpClient.newHttpClient();
		HttpResponse<String> initialized = rawPost(http, null, """
				{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",
				 "capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}""");
		String session = initialized.headers().firstValue("Mcp-Session-Id").orElseThrow();
		rawPost(http, session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
		for (String arguments : new String[] { "\"MCP-SRV-POISON as a bare string\"", "[\"MCP-SRV-POISON\", 1]", "42" }) {
			HttpResponse<String> answer = rawPost(http, session,
					"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"weather\","
							+ "\"arguments\":" + arguments + "}}");
			// the SDK's transport refuses them before any handler (Spring AI 2.0.1's Spring MVC transport with an
			// HTTP 500): they reach neither the screening nor the tool, and nothing of them is echoed
			assertThat(answer.statusCode()).as(arguments).isGreaterThanOrEqualTo(400);
			assertThat(answer.body()).as(arguments).doesNotContain("MCP-SRV-POISON");
		}
		assertThat(this.parcels.weatherCalls).hasValue(0);
		// and the server goes on serving
		assertThat(text(this.client.callTool(new CallToolRequest("weather", Map.of("city", "Lyon"))))).contains("Sunny");
	}

	private HttpResponse<String> rawPost(HttpClient http, @Nullable String session, String body) throws Exception {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/mcp"))
			.timeout(Duration.ofSeconds(30))
			.header("Content-Type", "application/json")
			.header("Accept", "application/json, text/event-stream")
			.POST(HttpRequest.BodyPublishers.ofString(body));
		if (session != null) {
			request.header("Mcp-Session-Id", session);
		}
		return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
	}

	static String text(CallToolResult result) {
		StringBuilder text = new StringBuilder();
		for (McpSchema.Content content : result.content()) {
			if (content instanceof McpSchema.TextContent part) {
				text.append(part.text());
			}
		}
		return text.toString();
	}

}
