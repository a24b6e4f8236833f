package dev.modelarmor.client;

import java.io.IOException;
import java.time.Clock;

import dev.modelarmor.retry.FailureClassifier;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamLocation;

import org.springframework.http.MediaType;
import org.springframework.retry.support.RetryTemplate;
import org.springframework.util.Assert;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClient.RequestHeadersSpec.ConvertibleClientHttpResponse;

/**
 * {@link ModelArmorOperations} over Model Armor's REST API. Each call is one logical operation made of
 * HTTP attempts run by a spring-retry {@link RetryTemplate} that follows Google's retry strategy.
 *
 * <p>Instances are immutable and thread-safe; {@link #withTemplate(String)} shares the HTTP client and
 * the retry template.
 */
public class ModelArmorTemplate implements ModelArmorOperations {

	private static final String SANITIZE_PATH = "/v1/projects/{project}/locations/{location}/templates/{template}:{method}";

	private final RestClient restClient;

	private final RetryTemplate retryTemplate;

	private final String projectId;

	private final String location;

	private final @Nullable String templateId;

	private final Clock clock = Clock.systemUTC();

	/**
	 * Creates a template.
	 * @param restClient the HTTP client, with base URL and authorization (see {@link ModelArmorRestClients})
	 * @param retryTemplate runs the attempts of each call
	 * @param projectId the Google Cloud project of the templates
	 * @param location the location of the templates
	 * @param templateId the template used by calls, or {@code null} to require {@link #withTemplate(String)}
	 */
	public ModelArmorTemplate(RestClient restClient, RetryTemplate retryTemplate, String projectId, String location,
			@Nullable String templateId) {
		Assert.hasText(projectId, "projectId must not be empty");
		Assert.hasText(location, "location must not be empty");
		this.restClient = restClient;
		this.retryTemplate = retryTemplate;
		this.projectId = projectId;
		this.location = location;
		this.templateId = templateId;
	}

	@Override
	public SanitizationResult sanitizeUserPrompt(String prompt) {
		return sanitizeUserPrompt(DataItem.text(prompt));
	}

	@Override
	public SanitizationResult sanitizeUserPrompt(DataItem prompt) {
		return sanitize("sanitizeUserPrompt", new SanitizeUserPromptRequest(prompt));
	}

	@Override
	public SanitizationResult sanitizeModelResponse(String response) {
		return sanitizeModelResponse(DataItem.text(response), null);
	}

	@Override
	public SanitizationResult sanitizeModelResponse(String response, String userPrompt) {
		return sanitizeModelResponse(DataItem.text(response), userPrompt);
	}

	@Override
	public SanitizationResult sanitizeModelResponse(DataItem response, @Nullable String userPrompt) {
		return sanitize("sanitizeModelResponse", new SanitizeModelResponseRequest(response, userPrompt));
	}

	@Override
	public ModelArmorTemplate withTemplate(String templateId) {
		Assert.hasText(templateId, "templateId must not be empty");
		return new ModelArmorTemplate(this.restClient, this.retryTemplate, this.projectId, this.location, templateId);
	}

	/**
	 * The template id that calls use.
	 * @return the template id, or {@code null} when none is set
	 */
	public @Nullable String getTemplateId() {
		return this.templateId;
	}

	private SanitizationResult sanitize(String method, Object request) {
		String template = requireTemplateId();
		byte[] body = ModelArmorJson.mapper().writeValueAsBytes(request);
		return this.retryTemplate.execute((context) -> attempt(method, template, body, context.getRetryCount() + 1));
	}

	private SanitizationResult attempt(String method, String template, byte[] body, int attempt) {
		try {
			return this.restClient.post()
				.uri(SANITIZE_PATH, this.projectId, this.location, template, method)
				.contentType(MediaType.APPLICATION_JSON)
				.accept(MediaType.APPLICATION_JSON)
				.body(body)
				.exchange((request, response) -> readAnswer(response, attempt));
		}
		catch (ResourceAccessException ex) {
			throw new ModelArmorException(
					"Model Armor could not be reached (" + FailureClassifier.describe(ex) + ")", attempt, ex);
		}
	}

	private SanitizationResult readAnswer(ConvertibleClientHttpResponse response, int attempt) throws IOException {
		int status = response.getStatusCode().value();
		byte[] body = response.getBody().readAllBytes();
		if (status < 200 || status > 299) {
			throw ApiErrorTranslator.translate(status, response.getHeaders(), body, attempt, this.clock.instant());
		}
		return parseResult(body, status, attempt);
	}

	private static SanitizationResult parseResult(byte[] body, int status, int attempt) {
		SanitizeResponse parsed;
		try {
			parsed = ModelArmorJson.mapper().readValue(body, SanitizeResponse.class);
		}
		catch (JacksonException ex) {
			throw new ModelArmorException("Model Armor answered HTTP " + status
					+ " with a body that is not a sanitize response: " + describe(ex, body), attempt, null);
		}
		if (parsed == null || parsed.sanitizationResult() == null) {
			throw new ModelArmorException(
					"Model Armor answered HTTP " + status + " without a sanitizationResult", attempt, null);
		}
		return parsed.sanitizationResult();
	}

	/** Where the body went wrong, without quoting it: it may echo screened content. */
	private static String describe(JacksonException ex, byte[] body) {
		if (body.length == 0) {
			return "the body is empty";
		}
		TokenStreamLocation where = ex.getLocation();
		String position = (where != null && where.getLineNr() > 0)
				? " at line " + where.getLineNr() + ", column " + where.getColumnNr() : "";
		return ex.getClass().getSimpleName() + position;
	}

	private String requireTemplateId() {
		if (this.templateId == null || this.templateId.isBlank()) {
			throw new IllegalStateException(
					"No Model Armor template: set modelarmor.template-id or call withTemplate(templateId)");
		}
		return this.templateId;
	}

}
