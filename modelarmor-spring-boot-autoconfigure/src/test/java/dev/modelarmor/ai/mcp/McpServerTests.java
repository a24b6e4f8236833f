package dev.modelarmor.ai.mcp;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import io.modelcontextprotocol.client.McpSyncClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;

import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;

/**
 * What every test of the MCP server an application serves shares: Model Armor on WireMock, the application's MCP
 * server ({@link McpServerApp}, configured by each test's {@code @SpringBootTest}), and a client of the MCP SDK
 * connected to it before each test. The server shuts down at once: the SDK's clients leave their SSE stream open
 * after {@code closeGracefully()}, an active request that Tomcat's graceful shutdown would wait out for 30 s
 * when the test JVM exits (and Surefire then kills the fork).
 */
@TestPropertySource(properties = "server.shutdown=immediate")
abstract class McpServerTests {

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	@DynamicPropertySource
	static void modelArmor(DynamicPropertyRegistry registry) {
		McpServerFixtures.modelArmorProperties(modelArmor, registry);
	}

	@LocalServerPort
	int port;

	@Autowired
	McpServerApp.Parcels parcels;

	McpSyncClient client;

	@BeforeEach
	void connect() {
		this.parcels.reset();
		answers();
		this.client = connect(this.port);
	}

	@AfterEach
	void close() {
		this.client.closeGracefully();
	}

	/** Model Armor's answers for each test: the fixtures' rules unless a test class needs others. */
	void answers() {
		McpServerFixtures.answers(modelArmor);
	}

	/**
	 * The client of each test: over streamable HTTP unless a test class speaks another transport.
	 * @param port the application's
	 * @return a client, initialized
	 */
	McpSyncClient connect(int port) {
		return McpServerFixtures.streamable(port);
	}

}
