package dev.modelarmor.client;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

import dev.modelarmor.client.admin.FloorSettingOperations;
import dev.modelarmor.client.admin.TemplateChangeListener;
import dev.modelarmor.client.admin.TemplateOperations;
import dev.modelarmor.internal.Futures;
import dev.modelarmor.internal.ModelArmorThreads;
import dev.modelarmor.resilience.AttemptGate;
import dev.modelarmor.retry.ModelArmorAsyncRetries;
import dev.modelarmor.retry.ModelArmorRetryTemplates;
import dev.modelarmor.retry.RetryBudget;
import dev.modelarmor.retry.RetryBudgetSettings;
import dev.modelarmor.retry.RetryRuntime;
import dev.modelarmor.retry.RetrySettings;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.http.HttpMethod;
import org.springframework.http.client.ClientHttpRequestInterceptor;
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

	private static final String SANITIZE = "/v1/projects/{project}/locations/{location}/templates/{template}:{method}";

	private final ApiCalls calls;

	/** The non-blocking path, or {@code null} without one: then the asynchronous calls use their executor. */
	private final @Nullable AsyncApiCalls asyncCalls;

	private final ModelArmorEndpoint endpoint;

	private final String projectId;

	private final String location;

	private final @Nullable String templateId;

	/** The sanitize calls of this template id, their URIs built once; {@code null} without a template id. */
	private final @Nullable ApiCall sanitizeUserPromptCall;

	private final @Nullable ApiCall sanitizeModelResponseCall;

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

	private ModelArmorTemplate(ApiCalls calls, @Nullable AsyncApiCalls asyncCalls, ModelArmorEndpoint endpoint,
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
		this.sanitizeUserPromptCall = (templateId != null)
				? sanitizeCall("sanitize_user_prompt", "sanitizeUserPrompt", templateId) : null;
		this.sanitizeModelResponseCall = (templateId != null)
				? sanitizeCall("sanitize_model_response", "sanitizeModelResponse", templateId) : null;
	}

	private ApiCall sanitizeCall(String operation, String method, String templateId) {
		return ApiCall.of(operation, HttpMethod.POST, SANITIZE,
				Map.of("project", this.projectId, "location", this.location, "template", templateId, "method", method))
			.resolvedAt(this.endpoint.uri());
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
		return sanitize(this.sanitizeUserPromptCall, new SanitizeUserPromptRequest(prompt, options.toMetadata()));
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
		return sanitize(this.sanitizeModelResponseCall,
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
			return sanitizeAsync(async, this.sanitizeUserPromptCall,
					new SanitizeUserPromptRequest(prompt, options.toMetadata()));
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
			return sanitizeAsync(async, this.sanitizeModelResponseCall,
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
	public static Builder builder() {
		return new Builder();
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

	private SanitizationResult sanitize(@Nullable ApiCall sanitizeCall, Object request) {
		if (sanitizeCall == null) {
			throw new IllegalStateException(
					"No Model Armor template: set modelarmor.template-id or call withTemplate(templateId)");
		}
		SanitizationResult result = this.calls.send(sanitizeCall.body(request), SanitizeResponse.class,
				"a sanitize response")
			.sanitizationResult();
		Assert.state(result != null, "checked by SanitizeResponse.problem()");
		return result;
	}

	private CompletableFuture<SanitizationResult> sanitizeAsync(AsyncApiCalls async, @Nullable ApiCall sanitizeCall,
			Object request) {
		if (sanitizeCall == null) {
			return CompletableFuture.failedFuture(new IllegalStateException(
					"No Model Armor template: set modelarmor.template-id or call withTemplate(templateId)"));
		}
		CompletableFuture<SanitizeResponse> answer = async.send(sanitizeCall.body(request), SanitizeResponse.class,
				"a sanitize response");
		CompletableFuture<SanitizationResult> result = answer.thenApply((response) -> {
			SanitizationResult sanitized = response.sanitizationResult();
			Assert.state(sanitized != null, "checked by SanitizeResponse.problem()");
			return sanitized;
		});
		Futures.cancelWith(result, answer);
		return result;
	}

	/**
	 * Builds a {@link ModelArmorTemplate}. Defaults: {@link ModelArmorTemplate#DEFAULT_LOCATION}, its regional
	 * endpoint, {@link HttpTimeouts#DEFAULTS}, no authorization, Google's retry strategy
	 * ({@link RetrySettings#DEFAULTS}) on the system clock, no observer.
	 */
	public static final class Builder {

		private RestClient.Builder restClientBuilder = RestClient.builder();

		private @Nullable ModelArmorEndpoint endpoint;

		private HttpClientSettings httpClientSettings = HttpClientSettings.defaults();

		private @Nullable ClientHttpRequestInterceptor authorization;

		private @Nullable String quotaProjectId;

		private RetrySettings retrySettings = RetrySettings.DEFAULTS;

		private RetryRuntime retryRuntime = RetryRuntime.system();

		private @Nullable RetryTemplate retryTemplate;

		private @Nullable ModelArmorAsyncRetries asyncRetries;

		private @Nullable String projectId;

		private String location = DEFAULT_LOCATION;

		private @Nullable String templateId;

		private ModelArmorCallObserver callObserver = ModelArmorCallObserver.NONE;

		private AttemptGate attemptGate = AttemptGate.OPEN;

		private boolean virtualThreads;

		private Builder() {
		}

		/**
		 * The builder of the HTTP client, e.g. Spring Boot's, so that its customizers apply. Its interceptors
		 * and its observations ({@code http.client.requests}) see the blocking path's exchanges only: the
		 * non-blocking path's exchanges are the JDK client's {@code sendAsync}, which a {@code RestClient}
		 * cannot carry. The call observer ({@link #callObserver}) hears the calls of both paths.
		 * @param restClientBuilder the builder; it is changed
		 * @return this builder
		 */
		public Builder restClientBuilder(RestClient.Builder restClientBuilder) {
			this.restClientBuilder = restClientBuilder;
			return this;
		}

		/**
		 * The endpoint; by default the regional endpoint of the location.
		 * @param endpoint the endpoint
		 * @return this builder
		 */
		public Builder endpoint(ModelArmorEndpoint endpoint) {
			this.endpoint = endpoint;
			return this;
		}

		/**
		 * The timeouts of each attempt; they replace those of {@link #httpClientSettings(HttpClientSettings)}
		 * given before.
		 * @param timeouts the timeouts
		 * @return this builder
		 */
		public Builder timeouts(HttpTimeouts timeouts) {
			this.httpClientSettings = this.httpClientSettings.withTimeouts(timeouts.connect(), timeouts.read());
			return this;
		}

		/**
		 * Spring Boot's HTTP client settings, such as the application's {@code HttpClientSettings} bean: the
		 * connect timeout, the read timeout of each attempt (further bounded by what is left of the retry
		 * deadline) and the SSL bundle, for a corporate CA, a TLS-inspecting proxy or mutual TLS. A timeout
		 * they leave unset is the one of {@link HttpTimeouts#DEFAULTS}. Redirects are never followed, whatever
		 * the settings say: a redirected call would be answered by another server. These settings replace
		 * any {@link #timeouts(HttpTimeouts)} given before.
		 * @param httpClientSettings the settings
		 * @return this builder
		 */
		public Builder httpClientSettings(HttpClientSettings httpClientSettings) {
			Assert.notNull(httpClientSettings, "httpClientSettings must not be null");
			this.httpClientSettings = httpClientSettings;
			return this;
		}

		/**
		 * Adds credentials to each request, e.g. a {@code GoogleCredentialsInterceptor}. One that is also a
		 * {@link NonBlockingAuthorization} (the starter's is) authorizes both paths' requests in one place,
		 * with its headers as a future, and is asked for a new token once after a {@code 401}; any other
		 * interceptor runs in the blocking path's {@code RestClient}, and the asynchronous calls then run the
		 * blocking call on the executor they are given.
		 * @param authorization the interceptor, or {@code null} to send none
		 * @return this builder
		 */
		public Builder authorization(@Nullable ClientHttpRequestInterceptor authorization) {
			this.authorization = authorization;
			return this;
		}

		/**
		 * A project billed for quota, sent as {@code x-goog-user-project} (when the authorization does not
		 * already send one).
		 * @param quotaProjectId the project, or {@code null}
		 * @return this builder
		 */
		public Builder quotaProjectId(@Nullable String quotaProjectId) {
			this.quotaProjectId = quotaProjectId;
			return this;
		}

		/**
		 * How calls are retried.
		 * @param retrySettings the settings
		 * @return this builder
		 */
		public Builder retrySettings(RetrySettings retrySettings) {
			this.retrySettings = retrySettings;
			return this;
		}

		/**
		 * The clock, sleeper and random source of the retries (virtual ones in tests).
		 * @param retryRuntime the runtime
		 * @return this builder
		 */
		public Builder retryRuntime(RetryRuntime retryRuntime) {
			this.retryRuntime = retryRuntime;
			return this;
		}

		/**
		 * A retry template of one's own, used instead of one built from the retry settings and runtime. It is
		 * the blocking path's: the asynchronous calls retry with {@link #asyncRetries}, and its listeners
		 * cannot be read to tell them of those calls (the listeners registered on the template the builder
		 * builds, or on one of {@link dev.modelarmor.retry.ModelArmorRetryTemplates}, hear both paths).
		 * @param retryTemplate the template
		 * @return this builder
		 */
		public Builder retryTemplate(RetryTemplate retryTemplate) {
			this.retryTemplate = retryTemplate;
			return this;
		}

		/**
		 * How the asynchronous calls retry, used instead of retries built from the retry settings and runtime
		 * (which share the retry template's budget when the builder builds that too). A
		 * {@link #retryTemplate(RetryTemplate) retry template} of one's own is the blocking path's only.
		 * @param asyncRetries the retries
		 * @return this builder
		 */
		public Builder asyncRetries(ModelArmorAsyncRetries asyncRetries) {
			Assert.notNull(asyncRetries, "asyncRetries must not be null");
			this.asyncRetries = asyncRetries;
			return this;
		}

		/**
		 * The Google Cloud project of the templates (required).
		 * @param projectId the project id
		 * @return this builder
		 */
		public Builder projectId(String projectId) {
			this.projectId = projectId;
			return this;
		}

		/**
		 * The location of the templates.
		 * @param location a region such as {@code us-central1}, or {@code us} / {@code eu}
		 * @return this builder
		 */
		public Builder location(String location) {
			this.location = location;
			return this;
		}

		/**
		 * The template that sanitize calls use.
		 * @param templateId the template id, or {@code null} to require {@code withTemplate}
		 * @return this builder
		 */
		public Builder templateId(@Nullable String templateId) {
			this.templateId = templateId;
			return this;
		}

		/**
		 * An observer of every call (metrics, traces).
		 * @param callObserver the observer
		 * @return this builder
		 */
		public Builder callObserver(ModelArmorCallObserver callObserver) {
			this.callObserver = callObserver;
			return this;
		}

		/**
		 * What admits each HTTP attempt, retries included: the quota limiter and the circuit breaker
		 * ({@link dev.modelarmor.resilience.ResilienceGate}). None unless set.
		 * @param attemptGate the gate
		 * @return this builder
		 */
		public Builder attemptGate(AttemptGate attemptGate) {
			Assert.notNull(attemptGate, "attemptGate must not be null");
			this.attemptGate = attemptGate;
			return this;
		}

		/**
		 * Whether the exchanges that hold a thread while they wait for their answer (on Java 24 and earlier with
		 * two cores or fewer) hold a virtual thread rather than a daemon platform thread, as Spring Boot's own
		 * executors do with {@code spring.threads.virtual.enabled=true}; the auto-configuration sets it so. The
		 * HTTP client's executor, which only hands bytes on, and the thread that ends late answers stay
		 * platform threads. Off unless set.
		 * @param virtualThreads whether to use virtual threads (Java 21 and later)
		 * @return this builder
		 */
		public Builder virtualThreads(boolean virtualThreads) {
			this.virtualThreads = virtualThreads;
			return this;
		}

		/**
		 * Builds the template.
		 * @return the template
		 * @throws IllegalArgumentException when no project id was given, or when the project id, the
		 * location or the template id is blank, {@code .} or {@code ..} (also percent-encoded)
		 * @throws dev.modelarmor.retry.InvalidSettingException when a timeout is not positive
		 * @throws IllegalStateException when virtual threads are asked for before Java 21
		 */
		public ModelArmorTemplate build() {
			Assert.hasText(this.projectId, "projectId must not be empty");
			ModelArmorEndpoint target = (this.endpoint != null) ? this.endpoint
					: ModelArmorEndpoint.regional(this.location);
			RetryBudgetSettings budgetSettings = this.retrySettings.budget();
			RetryBudget budget = (budgetSettings != null) ? new RetryBudget(budgetSettings, this.retryRuntime.clock())
					: null;
			RetryTemplate retries = (this.retryTemplate != null) ? this.retryTemplate
					: ModelArmorRetryTemplates.retrying(this.retrySettings, this.retryRuntime, budget);
			// the listeners that customizers register on the blocking path's template hear both paths' calls
			ModelArmorAsyncRetries asyncRetries = ((this.asyncRetries != null) ? this.asyncRetries
					: ModelArmorAsyncRetries.retrying(this.retrySettings, this.retryRuntime, budget)).listenedBy(retries);
			HttpTimeouts timeouts = HttpTimeouts.of(this.httpClientSettings.connectTimeout(),
					this.httpClientSettings.readTimeout());
			DeadlineBoundedRequestFactory transport = new DeadlineBoundedRequestFactory(this.httpClientSettings,
					timeouts, ModelArmorThreads.of(this.virtualThreads));
			try {
				// an authorization with headers as a future is the attempt step's, on both paths; another
				// one is an interceptor of the blocking path's RestClient, and the non-blocking path runs on
				// the caller's executor
				ClientHttpRequestInterceptor authorization = this.authorization;
				NonBlockingAuthorization nonBlocking = (authorization instanceof NonBlockingAuthorization headers)
						? headers : null;
				boolean withoutAThread = authorization == null || nonBlocking != null;
				RestClient restClient = ModelArmorRestClients.create(this.restClientBuilder, target, transport,
						withoutAThread ? null : authorization, null);
				AttemptStep step = new AttemptStep(target.uri(), nonBlocking, this.quotaProjectId, timeouts.read(),
						this.attemptGate, this.callObserver);
				return new ModelArmorTemplate(new ApiCalls(restClient, retries, step),
						withoutAThread ? new AsyncApiCalls(transport, asyncRetries, step) : null, target, this.projectId,
						this.location, this.templateId, TemplateChangeListener.NONE, transport);
			}
			catch (RuntimeException ex) {
				// a refused id: no template holds the client, so none would close it
				transport.close();
				throw ex;
			}
		}

	}

}
