package dev.modelarmor.client.internal.transport;

import dev.modelarmor.client.ModelArmorEndpoint;
import dev.modelarmor.client.ModelArmorTemplate;
import org.jspecify.annotations.Nullable;

import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.web.client.RestClient;

/**
 * Builds the {@link RestClient} that {@link ModelArmorTemplate} talks through; its builder is the only
 * public way to one.
 */
public final class ModelArmorRestClients {

	public static final String QUOTA_PROJECT_HEADER = "x-goog-user-project";

	private ModelArmorRestClients() {
	}

	/**
	 * Configures a builder for Model Armor: base URL, per-attempt timeouts bounded by the retry deadline,
	 * and request authorization. Pass Spring Boot's {@code RestClient.Builder} so that the application's
	 * observation settings apply to each attempt.
	 * @param builder the builder to configure; it is changed
	 * @param endpoint the API's base URL
	 * @param requestFactory the transport: per-attempt timeouts bounded by the retry deadline
	 * @param authorization adds credentials to each request, or {@code null} to send none
	 * @param quotaProjectId sent as {@code x-goog-user-project}, or {@code null}; pass it here only when
	 * {@code authorization} does not already send it
	 * @return the client
	 */
	public static RestClient create(RestClient.Builder builder, ModelArmorEndpoint endpoint,
			DeadlineBoundedRequestFactory requestFactory, @Nullable ClientHttpRequestInterceptor authorization,
			@Nullable String quotaProjectId) {
		builder.baseUrl(endpoint.uri().toString()).requestFactory(requestFactory);
		if (authorization != null) {
			builder.requestInterceptor(authorization);
		}
		if (quotaProjectId != null) {
			builder.defaultHeader(QUOTA_PROJECT_HEADER, quotaProjectId);
		}
		return builder.build();
	}

}
