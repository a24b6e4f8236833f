package dev.modelarmor.ai.mcp;

import java.util.HashMap;
import java.util.Map;

import dev.modelarmor.screening.ModelArmorTenant;
import io.modelcontextprotocol.common.McpTransportContext;
import org.jspecify.annotations.Nullable;

/**
 * The tenant of one MCP request and the attributes the template resolver reads. The tenant comes, the first that
 * names one winning, from the transport context (what an application's {@code McpTransportContextExtractor} put
 * under {@link ModelArmorTenant#KEY}), then from the servlet request the request came in (what the starter's
 * filter read from {@code modelarmor.tenant.header}), then from the request's {@code _meta}: a header set by a
 * gateway in front of the server wins over what the calling agent writes into its own request.
 *
 * @param tenant the tenant, or {@code null}
 * @param attributes the request's {@code _meta} entries, for the template resolver
 */
record McpScope(@Nullable String tenant, Map<String, Object> attributes) {

	/** No tenant, no attributes. */
	static final McpScope NONE = new McpScope(null, Map.of());

	/**
	 * The scope of a request, read on the thread that received it.
	 * @param context the exchange's transport context, or {@code null}
	 * @param meta the request's {@code _meta}, or {@code null}
	 * @return the scope
	 */
	static McpScope of(@Nullable McpTransportContext context, @Nullable Map<String, Object> meta) {
		Map<String, Object> attributes = new HashMap<>();
		if (meta != null) {
			meta.forEach((key, value) -> {
				if (key != null && value != null) {
					attributes.put(key, value);
				}
			});
		}
		Object fromTransport = (context != null) ? context.get(ModelArmorTenant.KEY) : null;
		String tenant = (fromTransport != null) ? fromTransport.toString() : ModelArmorTenant.current();
		if (tenant == null) {
			Object fromMeta = attributes.get(ModelArmorTenant.KEY);
			tenant = (fromMeta instanceof String named) ? named : null;
		}
		return new McpScope(tenant, Map.copyOf(attributes));
	}

}
