package dev.modelarmor.client;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

import dev.modelarmor.client.admin.FloorSettingOperations;
import dev.modelarmor.client.admin.TemplateChangeListener;
import dev.modelarmor.client.admin.TemplateOperations;
import dev.modelarmor.client.internal.ApiCalls;
import dev.modelarmor.client.internal.AsyncApiCalls;
import dev.modelarmor.client.internal.AttemptStep;
import dev.modelarmor.client.internal.ListenedTemplateOperations;
import dev.modelarmor.client.internal.PathIds;
import dev.modelarmor.client.internal.RestFloorSettingOperations;
import dev.modelarmor.client.internal.RestTemplateOperations;
import dev.modelarmor.client.internal.SanitizeCalls;
import dev.modelarmor.client.internal.SanitizeModelResponseRequest;
import dev.modelarmor.client.internal.SanitizeUserPromptRequest;
import dev.modelarmor.client.internal.transport.DeadlineBoundedRequestFactory;
import dev.modelarmor.client.internal.transport.ModelArmorRestClients;
import dev.modelarmor.resilience.AttemptGate;
import dev.modelarmor.retry.ModelArmorRetryTemplates;
import org.jspecify.annotations.Nullable;

import org.springframework.retry.support.RetryTemplate;
import org.springframework.util.Assert;
import org.springframework.web.client.RestClient;

/**
 * {@link ModelArmorOperations} over Model Armor's REST API. Each call is one logical operation made of
 * HTTP attempts run by a spring-retry {@link RetryTemplate} that follows Google's retry strategy.
 *
 * <p>Instances are immutable and thread-safe; {@link #withTemplate(String)} shares the HTTP client and
 * the retry template. {@link #templates()} and {@link #floorSettings()} manage templates and floor
 * settings through the same client. {@link #close()} closes the HTTP client that {@link #builder()} built,
 * which every template derived from this one shares.
 */
public class ModelArmorTemplate implements ModelArmorOperations, AutoCloseable {

	/** The location of the templates unless another is chosen: Google's default region. */
	public static final String DEFAULT_LOCATION = "us-central1";

	private final ApiCalls calls;

	/** The non-blocking path, or {@code null} without one: then the asynchronous calls use their executor. */
	private final @Nullable AsyncApiCalls asyncCalls;

	private final ModelArmorEndpoint endpoint;

	private final String projectId;

	private final String location;

	private final @Nullable String templateId;

	/** The sanitize calls of this template id, their URIs built once. */
	private final SanitizeCalls sanitizeCalls;

	/** Told of every template change made through {@link #templates()}. */
	private final TemplateChangeListener templateListener;

	/** The transport that {@link #builder()} built and {@link #close()} closes; {@code null} otherwise. */
	private final @Nullable DeadlineBoundedRequestFactory transport;

	/**
	 * Creates a template; applications use {@link #builder()}, which also builds the HTTP client.
	 * @param restClient the HTTP client, with base URL and authorization (see {@link ModelArmorRestClients})
	 * @param retryTemplate runs the attempts of each retryable call
	 * @param endpoint the endpoint the client talks to, the rest client's base URL: sanitize calls go to
	 * it, and its {@link ModelArmorEndpoint#floorSettingsUri() floor-settings URL} serves {@link #floorSettings()}
	 * @param projectId the Google Cloud project of the templates
	 * @param location the location of the templates
	 * @param templateId the template used by sanitize calls, or {@code null} to require
	 * {@link #withTemplate(String)}
	 * @throws IllegalArgumentException naming the argument, when an id is blank, {@code .} or {@code ..}
	 * (also percent-encoded): ids go into the request's path, each as one percent-encoded segment
	 */
	ModelArmorTemplate(RestClient restClient, RetryTemplate retryTemplate, ModelArmorEndpoint endpoint,
			String projectId, String location, @Nullable String templateId) {
		this(new ApiCalls(restClient, retryTemplate, new AttemptStep(endpoint.uri(), null, null,
				HttpTimeouts.DEFAULTS.read(), AttemptGate.OPEN, ModelArmorCallObserver.NONE)), null, endpoint, projectId,
				location, templateId, TemplateChangeListener.NONE, null);
	}

	ModelArmorTemplate(ApiCalls calls, @Nullable AsyncApiCalls asyncCalls, ModelArmorEndpoint endpoint,
			String projectId, String location, @Nullable String templateId, TemplateChangeListener templateListener,
			@Nullable DeadlineBoundedRequestFactory transport) {
		this.calls = calls;
		this.asyncCalls = asyncCalls;
		this.templateListener = templateListener;
		this.transport = transport;
		this.endpoint = endpoint;
		this.projectId = PathIds.require("projectId", projectId);
		this.location = PathIds.require("location", location);
		this.templateId = (templateId != null) ? PathIds.require("templateId", templateId) : null;
		this.sanitizeCalls = new SanitizeCalls(endpoint, this.projectId, this.location, this.templateId);
	}

	@Override
	public SanitizationResult sanitizeUserPrompt(String prompt) {
		return sanitizeUserPrompt(DataItem.text(prompt));
	}

	@Override
	public SanitizationResult sanitizeUserPrompt(DataItem prompt) {
		return sanitizeUserPrompt(prompt, SanitizeOptions.NONE);
	}

	@Override
	public SanitizationResult sanitizeUserPrompt(DataItem prompt, SanitizeOptions options) {
		prompt.requireWithinLimit("prompt");
		return this.sanitizeCalls.userPrompt(this.calls, new SanitizeUserPromptRequest(prompt, options.toMetadata()));
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
		return sanitizeModelResponse(response, userPrompt, SanitizeOptions.NONE);
	}

	@Override
	public SanitizationResult sanitizeModelResponse(DataItem response, @Nullable String userPrompt,
			SanitizeOptions options) {
		response.requireWithinLimit("model response");
		return this.sanitizeCalls.modelResponse(this.calls,
				new SanitizeModelResponseRequest(response, userPrompt, options.toMetadata()));
	}

	/**
	 * Screens a user prompt without holding a thread while the call or a wait before a retry is in flight,
	 * when this client has a non-blocking path ({@link #isNonBlocking()}); otherwise on the executor.
	 * Cancelling the future cancels the HTTP exchange in flight or the wait, and starts no other attempt.
	 * @param prompt the prompt
	 * @param options the options of this call
	 * @param executor runs the blocking call when this client has no non-blocking path
	 * @return what the template's filters found, or the failure the blocking call would throw
	 */
	@Override
	public CompletableFuture<SanitizationResult> sanitizeUserPromptAsync(DataItem prompt, SanitizeOptions options,
			Executor executor) {
		AsyncApiCalls async = this.asyncCalls;
		if (async == null) {
			return ModelArmorOperations.super.sanitizeUserPromptAsync(prompt, options, executor);
		}
		try {
			prompt.requireWithinLimit("prompt");
			return this.sanitizeCalls.userPromptAsync(async, new SanitizeUserPromptRequest(prompt, options.toMetadata()));
		}
		catch (RuntimeException ex) {
			return CompletableFuture.failedFuture(ex);
		}
	}

	/**
	 * Screens a model response as {@link #sanitizeUserPromptAsync} screens a prompt.
	 * @param response the response
	 * @param userPrompt the prompt that produced it, or {@code null}
	 * @param options the options of this call
	 * @param executor runs the blocking call when this client has no non-blocking path
	 * @return what the template's filters found, or the failure the blocking call would throw
	 */
	@Override
	public CompletableFuture<SanitizationResult> sanitizeModelResponseAsync(DataItem response,
			@Nullable String userPrompt, SanitizeOptions options, Executor executor) {
		AsyncApiCalls async = this.asyncCalls;
		if (async == null) {
			return ModelArmorOperations.super.sanitizeModelResponseAsync(response, userPrompt, options, executor);
		}
		try {
			response.requireWithinLimit("model response");
			return this.sanitizeCalls.modelResponseAsync(async,
					new SanitizeModelResponseRequest(response, userPrompt, options.toMetadata()));
		}
		catch (RuntimeException ex) {
			return CompletableFuture.failedFuture(ex);
		}
	}

	/**
	 * Whether the asynchronous calls hold no thread: {@code true} for a template that {@link #builder()} built
	 * with no authorization, or with one that is a {@link NonBlockingAuthorization} (as the starter's
	 * credentials interceptor is).
	 * @return whether this client has a non-blocking path
	 */
	@Override
	public boolean isNonBlocking() {
		return this.asyncCalls != null;
	}

	@Override
	public ModelArmorTemplate withTemplate(String templateId) {
		PathIds.require("templateId", templateId);
		return new ModelArmorTemplate(this.calls, this.asyncCalls, this.endpoint, this.projectId, this.location, templateId,
				this.templateListener, this.transport);
	}

	/**
	 * The same client, bound to a template in the location the reference names: its calls go to that
	 * location's regional endpoint (or, when the endpoint is explicit, to that endpoint with that location in
	 * the path). The HTTP client, retries, observer and gate are shared.
	 * @param template the template and its location
	 * @return a client that uses that template where it lives
	 */
	@Override
	public ModelArmorTemplate withTemplate(TemplateReference template) {
		return new ModelArmorTemplate(this.calls, this.asyncCalls, this.endpoint.forLocation(template.location()),
				this.projectId, template.location(), template.templateId(), this.templateListener, this.transport);
	}

	/**
	 * The location of the templates that sanitize calls and {@link #templates()} use.
	 * @return the location
	 */
	public String getLocation() {
		return this.location;
	}

	/**
	 * The same client, reporting its calls to an observer (metrics, traces).
	 * @param observer the observer
	 * @return a client that reports to it
	 */
	public ModelArmorTemplate withCallObserver(ModelArmorCallObserver observer) {
		return new ModelArmorTemplate(this.calls.observedBy(observer),
				(this.asyncCalls != null) ? this.asyncCalls.observedBy(observer) : null, this.endpoint, this.projectId, this.location,
				this.templateId, this.templateListener, this.transport);
	}

	/**
	 * The same client, running the attempts of its retryable calls with another retry template: for
	 * example {@code ModelArmorRetryTemplates.singleAttempt(settings, runtime)} with a short deadline, for
	 * a health check that must answer quickly rather than retry for the whole deadline. The HTTP client
	 * and the call observer are shared. The asynchronous calls keep retrying as before: a retry template
	 * is the blocking path's.
	 * @param retryTemplate runs the attempts of each retryable call
	 * @return a client that retries with it
	 */
	public ModelArmorTemplate withRetryTemplate(RetryTemplate retryTemplate) {
		Assert.notNull(retryTemplate, "retryTemplate must not be null");
		return new ModelArmorTemplate(this.calls.retryingWith(retryTemplate), this.asyncCalls, this.endpoint, this.projectId,
				this.location, this.templateId, this.templateListener, this.transport);
	}

	/**
	 * The same client, telling a listener of every template change made through {@link #templates()} (the
	 * starter's verdict cache listens, to drop verdicts that a changed template may no longer give). The
	 * HTTP client, retry template and call observer are shared.
	 * @param listener told after every create, update or delete, also one that failed
	 * @return a client that tells it
	 */
	public ModelArmorTemplate withTemplateChangeListener(TemplateChangeListener listener) {
		Assert.notNull(listener, "listener must not be null");
		return new ModelArmorTemplate(this.calls, this.asyncCalls, this.endpoint, this.projectId, this.location, this.templateId,
				listener, this.transport);
	}

	/**
	 * Closes the HTTP client and its executor, when {@link #builder()} built them: templates derived from this
	 * one share them, so close the one that was built, once no call is to be made. Calls made afterwards fail
	 * with a {@link ModelArmorException} without reaching the network. Spring closes the auto-configured
	 * template when its context closes.
	 */
	@Override
	public void close() {
		if (this.transport != null) {
			this.transport.close();
		}
	}

	/** The transport that the builder built, for tests. */
	@Nullable DeadlineBoundedRequestFactory transport() {
		return this.transport;
	}

	@Override
	public TemplateOperations templates() {
		TemplateOperations operations = new RestTemplateOperations(this.calls, this.endpoint.uri(), this.projectId,
				this.location);
		return (this.templateListener == TemplateChangeListener.NONE) ? operations
				: new ListenedTemplateOperations(operations, parentName(), this.templateListener);
	}

	@Override
	public FloorSettingOperations floorSettings() {
		return new RestFloorSettingOperations(this.calls, this.endpoint.floorSettingsUri());
	}

	/**
	 * A builder for use without Spring Boot's auto-configuration (or in tests):
	 * <pre>{@code
	 * ModelArmorTemplate modelArmor = ModelArmorTemplate.builder()
	 *     .projectId("my-project").location("us-central1").templateId("my-template")
	 *     .authorization(new GoogleCredentialsInterceptor(credentials))
	 *     .build();
	 * }</pre>
	 * @return a builder with the starter's defaults
	 */
	public static ModelArmorTemplateBuilder builder() {
		return new ModelArmorTemplateBuilder();
	}

	/**
	 * The template id that sanitize calls use.
	 * @return the template id, or {@code null} when none is set
	 */
	public @Nullable String getTemplateId() {
		return this.templateId;
	}

	/**
	 * The full resource name of the template that sanitize calls use: what a verdict depends on.
	 * @return {@code projects/{project}/locations/{location}/templates/{template}}, or {@code null} when no
	 * template is set
	 */
	@Override
	public @Nullable String templateName() {
		return (this.templateId != null) ? parentName() + "/templates/" + this.templateId : null;
	}

	private String parentName() {
		return "projects/" + this.projectId + "/locations/" + this.location;
	}

}
