package dev.modelarmor.client.internal;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpMethod;
import org.springframework.util.Assert;
import org.springframework.web.util.DefaultUriBuilderFactory;
import org.springframework.web.util.UriBuilder;

/**
 * One logical call of the Model Armor REST API, before it is sent. Path variables and query values are
 * encoded when the URI is built, each variable strictly as one segment, so ids and filter expressions can
 * hold any character. Operations address their calls to an endpoint ({@link #at(URI)},
 * {@link #resolvedAt(URI)}) so that the starter's own URI builder does that encoding, whatever encoding
 * mode the application's {@code RestClient} was built with.
 *
 * @param operation what the call does, for metrics: e.g. {@code sanitize_user_prompt}, {@code templates.get}
 * @param method the HTTP method
 * @param pathTemplate the path below the endpoint, with {@code {name}} variables
 * @param variables the values of the path variables
 * @param query query parameters, in order
 * @param body the JSON body object, or {@code null}
 * @param retryable whether the call is safe to retry: a read, a sanitize call, or a change that carries
 * a {@code requestId} reused by every attempt
 * @param endpoint the endpoint to send it to, or {@code null} for the client's own
 * @param resolvedUri the whole URI, built once in advance ({@link #resolvedAt(URI)}), or {@code null} to
 * build it from the other parts at each attempt
 */
record ApiCall(String operation, HttpMethod method, String pathTemplate, Map<String, Object> variables, Map<String, String> query,
		@Nullable Object body, boolean retryable, @Nullable URI endpoint, @Nullable URI resolvedUri) {

	/**
	 * A call; every path variable must be able to stand as one path segment ({@link PathIds}), which the
	 * operations check first, naming their own arguments.
	 */
	static ApiCall of(String operation, HttpMethod method, String pathTemplate, Map<String, Object> variables) {
		variables.forEach((name, value) -> PathIds.require(name, value.toString()));
		return new ApiCall(operation, method, pathTemplate, Map.copyOf(variables), Map.of(), null, true, null, null);
	}

	/**
	 * The same call with its URI built now, against an endpoint: for a call made again and again with the
	 * same path (a sanitize call), where building and encoding the URI at every call is most of the HTTP
	 * layer's own work.
	 */
	ApiCall resolvedAt(URI endpoint) {
		URI uri = uri(new DefaultUriBuilderFactory(endpoint.toString()).builder());
		return new ApiCall(this.operation, this.method, this.pathTemplate, this.variables, this.query, this.body,
				this.retryable, endpoint, uri);
	}

	ApiCall body(Object body) {
		return new ApiCall(this.operation, this.method, this.pathTemplate, this.variables, this.query, body, this.retryable,
				this.endpoint, this.resolvedUri);
	}

	ApiCall query(String name, @Nullable Object value) {
		Assert.state(this.resolvedUri == null, "the URI is already resolved");
		if (value == null) {
			return this;
		}
		Map<String, String> query = new LinkedHashMap<>(this.query);
		query.put(name, value.toString());
		return new ApiCall(this.operation, this.method, this.pathTemplate, this.variables, query, this.body, this.retryable,
				this.endpoint, null);
	}

	ApiCall notRetryable() {
		return new ApiCall(this.operation, this.method, this.pathTemplate, this.variables, this.query, this.body, false,
				this.endpoint, this.resolvedUri);
	}

	ApiCall at(URI endpoint) {
		Assert.state(this.resolvedUri == null, "the URI is already resolved");
		return new ApiCall(this.operation, this.method, this.pathTemplate, this.variables, this.query, this.body, this.retryable,
				endpoint, null);
	}

	/** The URI, with every variable and query value encoded strictly. */
	URI uri(UriBuilder builder) {
		Map<String, Object> values = new LinkedHashMap<>(this.variables);
		builder.path(this.pathTemplate);
		this.query.forEach((name, value) -> {
			builder.queryParam(name, "{query-" + name + "}");
			values.put("query-" + name, value);
		});
		return builder.build(values);
	}

}
