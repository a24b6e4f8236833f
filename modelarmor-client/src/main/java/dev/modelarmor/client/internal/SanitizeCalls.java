package dev.modelarmor.client.internal;

import java.util.Map;
import java.util.concurrent.CompletableFuture;

import dev.modelarmor.client.ModelArmorEndpoint;
import dev.modelarmor.client.ModelArmorTemplate;
import dev.modelarmor.client.SanitizationResult;
import dev.modelarmor.internal.Futures;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpMethod;
import org.springframework.util.Assert;

/**
 * The two sanitize calls of one template id, their URIs built once, sent on either path; what
 * {@link ModelArmorTemplate}'s sanitize operations send.
 */
public final class SanitizeCalls {

	private static final String PATH = "/v1/projects/{project}/locations/{location}/templates/{template}:{method}";

	private static final String NO_TEMPLATE = "No Model Armor template: set modelarmor.template-id or call withTemplate(templateId)";

	private static final String EXPECTED = "a sanitize response";

	/** {@code null} without a template id, as the other. */
	private final @Nullable ApiCall userPrompt;

	private final @Nullable ApiCall modelResponse;

	/**
	 * The calls of a template.
	 * @param endpoint where they go
	 * @param projectId the project, checked as a path segment
	 * @param location the location, checked as a path segment
	 * @param templateId the template, checked as a path segment, or {@code null}: then each call fails
	 */
	public SanitizeCalls(ModelArmorEndpoint endpoint, String projectId, String location, @Nullable String templateId) {
		this.userPrompt = (templateId != null)
				? call(endpoint, projectId, location, templateId, "sanitize_user_prompt", "sanitizeUserPrompt") : null;
		this.modelResponse = (templateId != null)
				? call(endpoint, projectId, location, templateId, "sanitize_model_response", "sanitizeModelResponse") : null;
	}

	private static ApiCall call(ModelArmorEndpoint endpoint, String projectId, String location, String templateId,
			String operation, String method) {
		return ApiCall.of(operation, HttpMethod.POST, PATH,
				Map.of("project", projectId, "location", location, "template", templateId, "method", method))
			.resolvedAt(endpoint.uri());
	}

	/**
	 * Screens a prompt on the calling thread.
	 * @param calls the calls
	 * @param request the body
	 * @return the result
	 */
	public SanitizationResult userPrompt(ApiCalls calls, SanitizeUserPromptRequest request) {
		return send(calls, this.userPrompt, request);
	}

	/**
	 * Screens a model response on the calling thread.
	 * @param calls the calls
	 * @param request the body
	 * @return the result
	 */
	public SanitizationResult modelResponse(ApiCalls calls, SanitizeModelResponseRequest request) {
		return send(calls, this.modelResponse, request);
	}

	/**
	 * Screens a prompt without holding a thread.
	 * @param async the calls
	 * @param request the body
	 * @return the result, when it comes
	 */
	public CompletableFuture<SanitizationResult> userPromptAsync(AsyncApiCalls async, SanitizeUserPromptRequest request) {
		return sendAsync(async, this.userPrompt, request);
	}

	/**
	 * Screens a model response without holding a thread.
	 * @param async the calls
	 * @param request the body
	 * @return the result, when it comes
	 */
	public CompletableFuture<SanitizationResult> modelResponseAsync(AsyncApiCalls async,
			SanitizeModelResponseRequest request) {
		return sendAsync(async, this.modelResponse, request);
	}

	private static SanitizationResult send(ApiCalls calls, @Nullable ApiCall call, Object request) {
		if (call == null) {
			throw new IllegalStateException(NO_TEMPLATE);
		}
		SanitizationResult result = calls.send(call.body(request), SanitizeResponse.class, EXPECTED).sanitizationResult();
		Assert.state(result != null, "checked by SanitizeResponse.problem()");
		return result;
	}

	private static CompletableFuture<SanitizationResult> sendAsync(AsyncApiCalls async, @Nullable ApiCall call,
			Object request) {
		if (call == null) {
			return CompletableFuture.failedFuture(new IllegalStateException(NO_TEMPLATE));
		}
		CompletableFuture<SanitizeResponse> answer = async.send(call.body(request), SanitizeResponse.class, EXPECTED);
		CompletableFuture<SanitizationResult> result = answer.thenApply((response) -> {
			SanitizationResult sanitized = response.sanitizationResult();
			Assert.state(sanitized != null, "checked by SanitizeResponse.problem()");
			return sanitized;
		});
		Futures.cancelWith(result, answer);
		return result;
	}

}
