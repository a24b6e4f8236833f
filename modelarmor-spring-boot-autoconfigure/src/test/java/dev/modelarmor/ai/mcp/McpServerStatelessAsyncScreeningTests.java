package dev.modelarmor.ai.mcp;

import dev.modelarmor.guard.ModelArmorStubs;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

/**
 * The stateless server's tests against the same application as a stateless async MCP server
 * ({@code spring.ai.mcp.server.type=ASYNC}): Spring AI's stateless async tool, prompt and resource specifications
 * are screened without blocking, with the same answers as the sync server's.
 */
@SpringBootTest(classes = { McpServerApp.class, ModelArmorStubs.InstantRetries.class },
		webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "server.address=127.0.0.1", "spring.ai.mcp.server.protocol=STATELESS",
				"spring.ai.mcp.server.type=ASYNC", "modelarmor.template-check.enabled=false" })
class McpServerStatelessAsyncScreeningTests extends McpServerStatelessScreeningTests {

}
