package dev.modelarmor.client;

import dev.modelarmor.client.admin.TemplateChangeListener;
import dev.modelarmor.client.internal.ApiCalls;
import dev.modelarmor.client.internal.AsyncApiCalls;
import dev.modelarmor.client.internal.AttemptStep;
import dev.modelarmor.client.internal.transport.DeadlineBoundedRequestFactory;
import dev.modelarmor.client.internal.transport.ModelArmorRestClients;
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
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.retry.support.RetryTemplate;
import org.springframework.util.Assert;
import org.springframework.web.client.RestClient;

/**
 * Builds a {@link ModelArmorTemplate}. Defaults: {@link ModelArmorTemplate#DEFAULT_LOCATION}, its regional
 * endpoint, {@link HttpTimeouts#DEFAULTS}, no authorization, Google's retry strategy
 * ({@link RetrySettings#DEFAULTS}) on the system clock, no observer.
 */
public final class ModelArmorTemplateBuilder {

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

	private String location = ModelArmorTemplate.DEFAULT_LOCATION;

	private @Nullable String templateId;

	private ModelArmorCallObserver callObserver = ModelArmorCallObserver.NONE;

	private AttemptGate attemptGate = AttemptGate.OPEN;

	private boolean virtualThreads;

	ModelArmorTemplateBuilder() {
	}

	/**
	 * The builder of the HTTP client, e.g. Spring Boot's, so that its customizers apply. Its interceptors
	 * and its observations ({@code http.client.requests}) see the blocking path's exchanges only: the
	 * non-blocking path's exchanges are the JDK client's {@code sendAsync}, which a {@code RestClient}
	 * cannot carry. The call observer ({@link #callObserver}) hears the calls of both paths.
	 * @param restClientBuilder the builder; it is changed
	 * @return this builder
	 */
	public ModelArmorTemplateBuilder restClientBuilder(RestClient.Builder restClientBuilder) {
		this.restClientBuilder = restClientBuilder;
		return this;
	}

	/**
	 * The endpoint; by default the regional endpoint of the location.
	 * @param endpoint the endpoint
	 * @return this builder
	 */
	public ModelArmorTemplateBuilder endpoint(ModelArmorEndpoint endpoint) {
		this.endpoint = endpoint;
		return this;
	}

	/**
	 * The timeouts of each attempt; they replace those of {@link #httpClientSettings(HttpClientSettings)}
	 * given before.
	 * @param timeouts the timeouts
	 * @return this builder
	 */
	public ModelArmorTemplateBuilder timeouts(HttpTimeouts timeouts) {
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
	public ModelArmorTemplateBuilder httpClientSettings(HttpClientSettings httpClientSettings) {
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
	public ModelArmorTemplateBuilder authorization(@Nullable ClientHttpRequestInterceptor authorization) {
		this.authorization = authorization;
		return this;
	}

	/**
	 * A project billed for quota, sent as {@code x-goog-user-project} (when the authorization does not
	 * already send one).
	 * @param quotaProjectId the project, or {@code null}
	 * @return this builder
	 */
	public ModelArmorTemplateBuilder quotaProjectId(@Nullable String quotaProjectId) {
		this.quotaProjectId = quotaProjectId;
		return this;
	}

	/**
	 * How calls are retried.
	 * @param retrySettings the settings
	 * @return this builder
	 */
	public ModelArmorTemplateBuilder retrySettings(RetrySettings retrySettings) {
		this.retrySettings = retrySettings;
		return this;
	}

	/**
	 * The clock, sleeper and random source of the retries (virtual ones in tests).
	 * @param retryRuntime the runtime
	 * @return this builder
	 */
	public ModelArmorTemplateBuilder retryRuntime(RetryRuntime retryRuntime) {
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
	public ModelArmorTemplateBuilder retryTemplate(RetryTemplate retryTemplate) {
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
	public ModelArmorTemplateBuilder asyncRetries(ModelArmorAsyncRetries asyncRetries) {
		Assert.notNull(asyncRetries, "asyncRetries must not be null");
		this.asyncRetries = asyncRetries;
		return this;
	}

	/**
	 * The Google Cloud project of the templates (required).
	 * @param projectId the project id
	 * @return this builder
	 */
	public ModelArmorTemplateBuilder projectId(String projectId) {
		this.projectId = projectId;
		return this;
	}

	/**
	 * The location of the templates.
	 * @param location a region such as {@code us-central1}, or {@code us} / {@code eu}
	 * @return this builder
	 */
	public ModelArmorTemplateBuilder location(String location) {
		this.location = location;
		return this;
	}

	/**
	 * The template that sanitize calls use.
	 * @param templateId the template id, or {@code null} to require {@code withTemplate}
	 * @return this builder
	 */
	public ModelArmorTemplateBuilder templateId(@Nullable String templateId) {
		this.templateId = templateId;
		return this;
	}

	/**
	 * An observer of every call (metrics, traces).
	 * @param callObserver the observer
	 * @return this builder
	 */
	public ModelArmorTemplateBuilder callObserver(ModelArmorCallObserver callObserver) {
		this.callObserver = callObserver;
		return this;
	}

	/**
	 * What admits each HTTP attempt, retries included: the quota limiter and the circuit breaker
	 * ({@link dev.modelarmor.resilience.ResilienceGate}). None unless set.
	 * @param attemptGate the gate
	 * @return this builder
	 */
	public ModelArmorTemplateBuilder attemptGate(AttemptGate attemptGate) {
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
	public ModelArmorTemplateBuilder virtualThreads(boolean virtualThreads) {
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
