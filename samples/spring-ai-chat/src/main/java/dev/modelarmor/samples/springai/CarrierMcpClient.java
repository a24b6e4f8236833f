package dev.modelarmor.samples.springai;

import java.time.Duration;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import org.jspecify.annotations.Nullable;

import org.springframework.ai.mcp.SyncMcpToolCallbackProvider;
import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Spring AI's MCP client, connected over loopback to the {@link CarrierMcpServer} once this app's web
 * server listens: its tools are what {@code POST /chat/mcp} gives the {@code ChatClient}, as an
 * application gives the tools of any MCP server. Not a {@code ToolCallbackProvider} bean, so that Spring
 * AI does not ask it for tools before the server is up.
 */
@Component
public class CarrierMcpClient {

	private volatile @Nullable McpSyncClient client;

	private volatile @Nullable ToolCallbackProvider tools;

	/**
	 * Connects to the carrier's MCP server once this app listens.
	 * @param event the web server's start
	 */
	@EventListener
	public void connect(WebServerInitializedEvent event) {
		String url = "http://127.0.0.1:" + event.getWebServer().getPort();
		McpSyncClient connected = McpClient
			.sync(HttpClientStreamableHttpTransport.builder(url).endpoint(CarrierMcpServer.ENDPOINT).build())
			.requestTimeout(Duration.ofSeconds(10))
			.build();
		connected.initialize();
		this.client = connected;
		this.tools = SyncMcpToolCallbackProvider.builder().mcpClients(connected).build();
	}

	/**
	 * The carrier's tools.
	 * @return the tools, as Spring AI's MCP client gives them
	 */
	public ToolCallbackProvider tools() {
		ToolCallbackProvider connected = this.tools;
		if (connected == null) {
			throw new IllegalStateException("The carrier's MCP server is not connected yet");
		}
		return connected;
	}

	/** Disconnects while the server still listens, before the web server stops. */
	@EventListener(ContextClosedEvent.class)
	public void disconnect() {
		McpSyncClient connected = this.client;
		if (connected != null) {
			connected.closeGracefully();
		}
	}

}
