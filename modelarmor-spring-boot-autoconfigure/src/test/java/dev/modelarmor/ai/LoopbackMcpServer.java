package dev.modelarmor.ai;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;

import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import org.apache.catalina.Context;
import org.apache.catalina.Wrapper;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;

import org.springframework.util.FileSystemUtils;

/**
 * A real MCP server for the tests: the MCP Java SDK's own server over streamable HTTP, in an embedded
 * Tomcat on a free loopback port. It offers a {@code weather} tool whose result the test chooses, and a
 * {@code notes} tool whose description the test chooses; it counts the calls of each.
 */
final class LoopbackMcpServer implements AutoCloseable {

	static final String WEATHER_DESCRIPTION = "The weather in a city, today";

	final AtomicInteger weatherCalls = new AtomicInteger();

	final AtomicInteger notesCalls = new AtomicInteger();

	private final Tomcat tomcat;

	private final McpSyncServer server;

	private final Path baseDir;

	private volatile String weatherResult = "Sunny, 24 degrees.";

	private LoopbackMcpServer(Tomcat tomcat, McpSyncServer server, Path baseDir) {
		this.tomcat = tomcat;
		this.server = server;
		this.baseDir = baseDir;
	}

	/**
	 * Starts a server.
	 * @param notesDescription the description of its {@code notes} tool
	 * @return the started server
	 * @throws Exception when it cannot start
	 */
	static LoopbackMcpServer start(String notesDescription) throws Exception {
		HttpServletStreamableServerTransportProvider transport = HttpServletStreamableServerTransportProvider.builder()
			.mcpEndpoint("/mcp")
			.build();
		Path baseDir = Files.createTempDirectory("mcp-tomcat");
		Tomcat tomcat = new Tomcat();
		tomcat.setBaseDir(baseDir.toString());
		Connector connector = new Connector();
		connector.setPort(0);
		connector.setProperty("address", "127.0.0.1");
		tomcat.setConnector(connector);
		Context context = tomcat.addContext("", baseDir.toString());
		Wrapper servlet = Tomcat.addServlet(context, "mcp", transport);
		servlet.setAsyncSupported(true);
		context.addServletMappingDecoded("/*", "mcp");
		LoopbackMcpServer[] holder = new LoopbackMcpServer[1];
		McpSyncServer server = McpServer.sync(transport)
			.serverInfo("parcels", "1.0.0")
			.capabilities(McpSchema.ServerCapabilities.builder().tools(true).build())
			.tools(tool("weather", WEATHER_DESCRIPTION, (arguments) -> {
				holder[0].weatherCalls.incrementAndGet();
				return holder[0].weatherResult;
			}), notes(notesDescription, () -> holder[0]))
			.build();
		tomcat.start();
		holder[0] = new LoopbackMcpServer(tomcat, server, baseDir);
		return holder[0];
	}

	/**
	 * The URL a client connects to.
	 * @return the base URL
	 */
	String baseUrl() {
		return "http://127.0.0.1:" + this.tomcat.getConnector().getLocalPort();
	}

	/**
	 * What the {@code weather} tool returns from now on.
	 * @param result the result
	 */
	void weatherReturns(String result) {
		this.weatherResult = result;
	}

	/**
	 * Replaces the {@code notes} tool by one with another description and tells the clients.
	 * @param description the new description
	 */
	void describeNotes(String description) {
		this.server.removeTool("notes");
		this.server.addTool(notes(description, () -> this));
		this.server.notifyToolsListChanged();
	}

	private static SyncToolSpecification notes(String description, Supplier<LoopbackMcpServer> self) {
		return tool("notes", description, (arguments) -> {
			self.get().notesCalls.incrementAndGet();
			return "noted";
		});
	}

	private static SyncToolSpecification tool(String name, String description,
			Function<Map<String, Object>, String> handler) {
		McpSchema.Tool tool = McpSchema.Tool.builder()
			.name(name)
			.description(description)
			.inputSchema(Map.of("type", "object", "properties",
					Map.of("city", Map.of("type", "string", "description", "The city")), "required", List.of("city")))
			.build();
		return SyncToolSpecification.builder()
			.tool(tool)
			.callHandler((exchange, request) -> McpSchema.CallToolResult.builder()
				.addTextContent(handler.apply(request.arguments()))
				.build())
			.build();
	}

	@Override
	public void close() throws Exception {
		this.server.closeGracefully();
		this.tomcat.stop();
		this.tomcat.destroy();
		FileSystemUtils.deleteRecursively(this.baseDir);
	}

}
