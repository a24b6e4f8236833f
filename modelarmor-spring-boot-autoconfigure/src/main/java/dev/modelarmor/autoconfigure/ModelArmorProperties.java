package dev.modelarmor.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.modelarmor.ai.ModelArmorAdvisorOptions;
import dev.modelarmor.ai.ModelArmorAdvisorOptions.OnBlock;
import dev.modelarmor.ai.ModelArmorAdvisorOptions.StreamMode;
import dev.modelarmor.ai.ModelArmorDocumentOptions.OnBlockedDocument;
import dev.modelarmor.ai.ModelArmorToolOptions;
import dev.modelarmor.ai.ModelArmorToolOptions.OnBlockedTool;
import dev.modelarmor.client.HttpTimeouts;
import dev.modelarmor.client.ModelArmorTemplate;
import dev.modelarmor.resilience.CircuitBreakerSettings;
import dev.modelarmor.resilience.QuotaSettings;
import dev.modelarmor.retry.JitterMode;
import dev.modelarmor.retry.RetryBudgetSettings;
import dev.modelarmor.retry.RetrySettings;
import dev.modelarmor.screening.MatchAction;
import dev.modelarmor.screening.ScreeningWindows;
import dev.modelarmor.screening.VerdictCache;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.core.io.Resource;
import org.springframework.util.unit.DataSize;

// The configuration processor cannot read defaults that refer to other classes, so
// additional-spring-configuration-metadata.json states them for IDEs; ModelArmorSettingsTests checks that
// every default there is the one here.

/**
 * Configuration properties of the Model Armor starter. Their defaults are those of the types they become
 * ({@link HttpTimeouts#DEFAULTS}, {@link RetrySettings#DEFAULTS}, {@link ScreeningWindows#DEFAULTS},
 * {@link ModelArmorAdvisorOptions#DEFAULTS}); an invalid value fails startup with a message naming the
 * property.
 */
@ConfigurationProperties("modelarmor")
public class ModelArmorProperties {

	/**
	 * Whether to enable the Model Armor starter.
	 */
	private boolean enabled = true;

	/**
	 * Google Cloud project that owns the templates. When unset: spring.cloud.gcp.project-id, then the
	 * GOOGLE_CLOUD_PROJECT environment variable, then the project of the credentials.
	 */
	private @Nullable String projectId;

	/**
	 * Location of the templates: a region such as us-central1, or the multi-region us or eu.
	 */
	private String location = ModelArmorTemplate.DEFAULT_LOCATION;

	/**
	 * Template used by sanitize calls unless another is chosen with withTemplate.
	 */
	private @Nullable String templateId;

	/**
	 * Base URL of the Model Armor API. When unset: the regional endpoint of the location,
	 * https://modelarmor.{location}.rep.googleapis.com. Plain http is accepted only for loopback hosts.
	 */
	private @Nullable String endpoint;

	private final Credentials credentials = new Credentials();

	private final Http http = new Http();

	private final Retry retry = new Retry();

	private final Guard guard = new Guard();

	private final Health health = new Health();

	private final SpringAi springAi = new SpringAi();

	private final Cache cache = new Cache();

	private final Quota quota = new Quota();

	private final CircuitBreaker circuitBreaker = new CircuitBreaker();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public @Nullable String getProjectId() {
		return this.projectId;
	}

	public void setProjectId(@Nullable String projectId) {
		this.projectId = projectId;
	}

	public String getLocation() {
		return this.location;
	}

	public void setLocation(String location) {
		this.location = location;
	}

	public @Nullable String getTemplateId() {
		return this.templateId;
	}

	public void setTemplateId(@Nullable String templateId) {
		this.templateId = templateId;
	}

	public @Nullable String getEndpoint() {
		return this.endpoint;
	}

	public void setEndpoint(@Nullable String endpoint) {
		this.endpoint = endpoint;
	}

	public Credentials getCredentials() {
		return this.credentials;
	}

	public Http getHttp() {
		return this.http;
	}

	public Retry getRetry() {
		return this.retry;
	}

	public Guard getGuard() {
		return this.guard;
	}

	public Health getHealth() {
		return this.health;
	}

	public SpringAi getSpringAi() {
		return this.springAi;
	}

	public Cache getCache() {
		return this.cache;
	}

	public Quota getQuota() {
		return this.quota;
	}

	public CircuitBreaker getCircuitBreaker() {
		return this.circuitBreaker;
	}

	/**
	 * How calls are authorized. A ModelArmorCredentialsProvider bean replaces the location and the
	 * defaults below it.
	 */
	public static class Credentials {

		/**
		 * Whether to send an Authorization header. Disable it only for a local stand-in or tests; it wins over
		 * a ModelArmorCredentialsProvider bean.
		 */
		private boolean enabled = true;

		/**
		 * Location of a credentials JSON file (service account or other), as a Spring resource such as
		 * file:/secrets/sa.json. When unset: spring-cloud-gcp's credentials when it is on the class path,
		 * then Application Default Credentials.
		 */
		private @Nullable Resource location;

		/**
		 * Project billed for quota, sent as the x-goog-user-project header. Needed with user credentials
		 * from gcloud auth application-default login.
		 */
		private @Nullable String quotaProjectId;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public @Nullable Resource getLocation() {
			return this.location;
		}

		public void setLocation(@Nullable Resource location) {
			this.location = location;
		}

		public @Nullable String getQuotaProjectId() {
			return this.quotaProjectId;
		}

		public void setQuotaProjectId(@Nullable String quotaProjectId) {
			this.quotaProjectId = quotaProjectId;
		}

	}

	/**
	 * HTTP settings of each attempt. Each one that is not set here is taken from Spring Boot's
	 * spring.http.clients.* settings, and otherwise defaults.
	 */
	public static class Http {

		/**
		 * Time allowed to open a connection. Defaults to spring.http.clients.connect-timeout, or 5s.
		 */
		private @Nullable Duration connectTimeout;

		/**
		 * Time allowed for an answer, per attempt. Never longer than what is left of the retry deadline.
		 * Defaults to spring.http.clients.read-timeout, or 30s.
		 */
		private @Nullable Duration readTimeout;

		private final Ssl ssl = new Ssl();

		public @Nullable Duration getConnectTimeout() {
			return this.connectTimeout;
		}

		public void setConnectTimeout(@Nullable Duration connectTimeout) {
			this.connectTimeout = connectTimeout;
		}

		public @Nullable Duration getReadTimeout() {
			return this.readTimeout;
		}

		public void setReadTimeout(@Nullable Duration readTimeout) {
			this.readTimeout = readTimeout;
		}

		public Ssl getSsl() {
			return this.ssl;
		}

		/**
		 * TLS of the calls to Model Armor.
		 */
		public static class Ssl {

			/**
			 * Name of the SSL bundle (spring.ssl.bundle.*) that the calls to Model Armor use, for example one
			 * that trusts a corporate CA or a TLS-inspecting proxy, or that holds a client certificate.
			 * Defaults to spring.http.clients.ssl.bundle, or the JDK's trust store.
			 */
			private @Nullable String bundle;

			public @Nullable String getBundle() {
				return this.bundle;
			}

			public void setBundle(@Nullable String bundle) {
				this.bundle = bundle;
			}

		}

	}

	/**
	 * Google's retry strategy: truncated exponential backoff with jitter. The wait before retry n
	 * (from 0) is min(initial-backoff × 2^n + U[0, jitter], max-backoff).
	 */
	public static class Retry {

		/**
		 * Whether to retry failed calls. When disabled, each call makes one attempt.
		 */
		private boolean enabled = true;

		/**
		 * Wait before the first retry, before jitter; each later wait doubles.
		 */
		private Duration initialBackoff = RetrySettings.DEFAULTS.schedule().initialBackoff();

		/**
		 * Upper bound of the random fraction added to each wait, drawn afresh per retry. Zero for none.
		 */
		private Duration jitter = RetrySettings.DEFAULTS.schedule().jitter();

		/**
		 * Longest wait between two attempts.
		 */
		private Duration maxBackoff = RetrySettings.DEFAULTS.schedule().maxBackoff();

		/**
		 * Total time from the start of the first attempt after which no retry starts. A wait that would
		 * end past it is not slept: the call fails at once.
		 */
		private Duration deadline = RetrySettings.DEFAULTS.deadline();

		/**
		 * Whether to retry HTTP 429 (Too Many Requests) as well as 500, 502, 503, 504 and I/O failures.
		 */
		private boolean retryTooManyRequests = RetrySettings.DEFAULTS.retryTooManyRequests();

		/**
		 * Whether a Retry-After header or a google.rpc.RetryInfo detail raises the next wait to at least
		 * the server's hint. A hint that does not fit before the deadline ends retrying at once.
		 */
		private boolean honorRetryAfter = RetrySettings.DEFAULTS.honorRetryAfter();

		/**
		 * How the random part of each wait is drawn: seed (Google's strategy: initial-backoff × 2^n plus up to
		 * jitter, capped), full (uniform between 0 and the capped exponential wait) or decorrelated (uniform
		 * between initial-backoff and three times the previous wait, capped). Full and decorrelated spread a
		 * crowd of clients better after an outage.
		 */
		private JitterMode jitterMode = RetrySettings.DEFAULTS.jitterMode();

		private final Budget budget = new Budget();

		public JitterMode getJitterMode() {
			return this.jitterMode;
		}

		public void setJitterMode(JitterMode jitterMode) {
			this.jitterMode = jitterMode;
		}

		public Budget getBudget() {
			return this.budget;
		}

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public Duration getInitialBackoff() {
			return this.initialBackoff;
		}

		public void setInitialBackoff(Duration initialBackoff) {
			this.initialBackoff = initialBackoff;
		}

		public Duration getJitter() {
			return this.jitter;
		}

		public void setJitter(Duration jitter) {
			this.jitter = jitter;
		}

		public Duration getMaxBackoff() {
			return this.maxBackoff;
		}

		public void setMaxBackoff(Duration maxBackoff) {
			this.maxBackoff = maxBackoff;
		}

		public Duration getDeadline() {
			return this.deadline;
		}

		public void setDeadline(Duration deadline) {
			this.deadline = deadline;
		}

		public boolean isRetryTooManyRequests() {
			return this.retryTooManyRequests;
		}

		public void setRetryTooManyRequests(boolean retryTooManyRequests) {
			this.retryTooManyRequests = retryTooManyRequests;
		}

		public boolean isHonorRetryAfter() {
			return this.honorRetryAfter;
		}

		public void setHonorRetryAfter(boolean honorRetryAfter) {
			this.honorRetryAfter = honorRetryAfter;
		}

		/**
		 * A gRPC-style retry budget per client: a bucket of tokens that retryable failures drain and
		 * successes refill; retries stop while it is below half.
		 */
		public static class Budget {

			/**
			 * Whether calls draw on a retry budget. When enabled, retries stop while the bucket is below half
			 * (outcome budget_exhausted).
			 */
			private boolean enabled;

			/**
			 * Size of the bucket, from 1 to 1000. Each retryable failure takes one token.
			 */
			private int maxTokens = RetryBudgetSettings.DEFAULTS.maxTokens();

			/**
			 * Tokens a successful call gives back, more than 0 and at most 1.
			 */
			private double tokenRatio = RetryBudgetSettings.DEFAULTS.tokenRatio();

			public boolean isEnabled() {
				return this.enabled;
			}

			public void setEnabled(boolean enabled) {
				this.enabled = enabled;
			}

			public int getMaxTokens() {
				return this.maxTokens;
			}

			public void setMaxTokens(int maxTokens) {
				this.maxTokens = maxTokens;
			}

			public double getTokenRatio() {
				return this.tokenRatio;
			}

			public void setTokenRatio(double tokenRatio) {
				this.tokenRatio = tokenRatio;
			}

		}

	}

	/**
	 * How @ModelArmorGuarded methods are screened.
	 */
	public static class Guard {

		/**
		 * Whether @ModelArmorGuarded methods are screened.
		 */
		private boolean enabled = true;

		/**
		 * Whether a guarded call goes on, with a WARN log, when screening cannot complete (Model Armor
		 * unreachable after the retries, or not every filter ran). When false the call is blocked.
		 */
		private boolean failOpen;

		private final Window window = new Window();

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public boolean isFailOpen() {
			return this.failOpen;
		}

		public void setFailOpen(boolean failOpen) {
			this.failOpen = failOpen;
		}

		public Window getWindow() {
			return this.window;
		}

		/**
		 * How text longer than Model Armor's filters read (their first 10,000 tokens) is screened: whole,
		 * in overlapping windows.
		 */
		public static class Window {

			/**
			 * Most bytes in one window, counted as UTF-8 of the text's NFKC form: a window of N bytes is at
			 * most N tokens in any language. From 1KB to 4MB.
			 */
			private DataSize size = DataSize.ofBytes(ScreeningWindows.DEFAULTS.size());

			/**
			 * Bytes that consecutive windows share at least, so that a sentence, a card number or a URL across
			 * a window's edge lies whole in one window. At most half of size.
			 */
			private DataSize overlap = DataSize.ofBytes(ScreeningWindows.DEFAULTS.overlap());

			/**
			 * Most windows of one text screened at the same time, from 1 to 32.
			 */
			private int parallelism = ScreeningWindows.DEFAULTS.parallelism();

			/**
			 * Most windows one text is cut into. Longer text is refused before anything is sent, whether or not
			 * screening fails open.
			 */
			private int maxWindows = ScreeningWindows.DEFAULTS.maxWindows();

			public DataSize getSize() {
				return this.size;
			}

			public void setSize(DataSize size) {
				this.size = size;
			}

			public DataSize getOverlap() {
				return this.overlap;
			}

			public void setOverlap(DataSize overlap) {
				this.overlap = overlap;
			}

			public int getParallelism() {
				return this.parallelism;
			}

			public void setParallelism(int parallelism) {
				this.parallelism = parallelism;
			}

			public int getMaxWindows() {
				return this.maxWindows;
			}

			public void setMaxWindows(int maxWindows) {
				this.maxWindows = maxWindows;
			}

		}

	}

	/**
	 * The modelArmor health indicator, enabled with management.health.modelarmor.enabled=true.
	 */
	public static class Health {

		/**
		 * How long a health check's result is reused before Model Armor is asked again. Zero asks on
		 * every check.
		 */
		private Duration cacheTimeToLive = Duration.ofSeconds(30);

		public Duration getCacheTimeToLive() {
			return this.cacheTimeToLive;
		}

		public void setCacheTimeToLive(Duration cacheTimeToLive) {
			this.cacheTimeToLive = cacheTimeToLive;
		}

	}

	/**
	 * The Spring AI integration.
	 */
	public static class SpringAi {

		private final Advisor advisor = new Advisor();

		public Advisor getAdvisor() {
			return this.advisor;
		}

		/**
		 * The Model Armor advisor added to every Spring AI ChatClient.Builder.
		 */
		public static class Advisor {

			/**
			 * Whether to add the Model Armor advisor to every ChatClient built from Spring AI's
			 * ChatClient.Builder. Whether its screening fails open comes from modelarmor.guard.fail-open.
			 */
			private boolean enabled;

			/**
			 * Template the advisor screens with. When unset or empty: modelarmor.template-id.
			 */
			private @Nullable String template;

			/**
			 * What a match does: block, deidentify (go on with Sensitive Data Protection's de-identified text
			 * when SDP alone matched, otherwise block) or log-only.
			 */
			private MatchAction onMatch = ModelArmorAdvisorOptions.DEFAULTS.onMatch();

			/**
			 * What a blocked prompt or answer returns: refuse (the refusal as the assistant's answer, with
			 * modelarmor.* metadata) or throw (ModelArmorViolationException, or
			 * ModelArmorNotScreenedException when screening could not complete).
			 */
			private OnBlock onBlock = ModelArmorAdvisorOptions.DEFAULTS.onBlock();

			/**
			 * The assistant's answer to a blocked call when on-block is refuse. Never names the content.
			 */
			private String refusal = ModelArmorAdvisorOptions.DEFAULT_REFUSAL;

			/**
			 * Order of the advisor in the ChatClient's chain; the lower, the earlier. The default runs it
			 * before chat memory and tool calling.
			 */
			private int order = ModelArmorAdvisorOptions.DEFAULT_ORDER;

			/**
			 * How a streamed answer is screened: windowed (held back until the window that holds it is
			 * screened; progressive a window at a time, one Model Armor call per window), buffered (the whole
			 * answer once, before any of it is emitted) or per-chunk (each chunk as it arrives; earlier chunks
			 * are out when a later one is blocked, a match split over chunks can go unseen, and each chunk
			 * costs a Model Armor call).
			 */
			private StreamMode streamMode = ModelArmorAdvisorOptions.DEFAULTS.streamMode();

			/**
			 * UTF-8 bytes of a streamed answer that wait for one screening with stream-mode windowed, from
			 * 1KB to 4MB. A quarter of each window is held back and screened again with the next one, so that
			 * a match across chunks is found before any of it is emitted.
			 */
			private DataSize streamWindow = DataSize.ofBytes(ModelArmorAdvisorOptions.DEFAULT_STREAM_WINDOW);

			/**
			 * Whether to start the model call while the prompt is being screened. The answer is released
			 * (or streamed) only after the prompt's verdict, tool calls wait for it, and a blocked prompt's
			 * answer is discarded: the model's tokens are spent on blocked prompts. Not with on-match
			 * deidentify. Requests through a chain with a chat memory advisor are screened first.
			 */
			private boolean parallelPromptScreening = ModelArmorAdvisorOptions.DEFAULT_PARALLEL_PROMPT_SCREENING;

			public boolean isEnabled() {
				return this.enabled;
			}

			public void setEnabled(boolean enabled) {
				this.enabled = enabled;
			}

			public @Nullable String getTemplate() {
				return this.template;
			}

			public void setTemplate(@Nullable String template) {
				this.template = template;
			}

			public MatchAction getOnMatch() {
				return this.onMatch;
			}

			public void setOnMatch(MatchAction onMatch) {
				this.onMatch = onMatch;
			}

			public OnBlock getOnBlock() {
				return this.onBlock;
			}

			public void setOnBlock(OnBlock onBlock) {
				this.onBlock = onBlock;
			}

			public String getRefusal() {
				return this.refusal;
			}

			public void setRefusal(String refusal) {
				this.refusal = refusal;
			}

			public int getOrder() {
				return this.order;
			}

			public void setOrder(int order) {
				this.order = order;
			}

			public StreamMode getStreamMode() {
				return this.streamMode;
			}

			public void setStreamMode(StreamMode streamMode) {
				this.streamMode = streamMode;
			}

			public DataSize getStreamWindow() {
				return this.streamWindow;
			}

			public void setStreamWindow(DataSize streamWindow) {
				this.streamWindow = streamWindow;
			}

			public boolean isParallelPromptScreening() {
				return this.parallelPromptScreening;
			}

			public void setParallelPromptScreening(boolean parallelPromptScreening) {
				this.parallelPromptScreening = parallelPromptScreening;
			}

		}

		private final Documents documents = new Documents();

		private final Tools tools = new Tools();

		public Documents getDocuments() {
			return this.documents;
		}

		public Tools getTools() {
			return this.tools;
		}

		/**
		 * Screening of the documents that Spring AI's retrieval advisors add to a prompt.
		 */
		public static class Documents {

			/**
			 * Whether to provide a ModelArmorDocumentScreener and, with spring-ai-rag on the class path, a
			 * ModelArmorDocumentPostProcessor to add to a RetrievalAugmentationAdvisor. Whether a document that
			 * cannot be screened is blocked comes from modelarmor.guard.fail-open.
			 */
			private boolean enabled;

			/**
			 * Template the documents are screened with. When unset or empty: modelarmor.template-id.
			 */
			private @Nullable String template;

			/**
			 * What a match in a document does: block, deidentify (go on with Sensitive Data Protection's
			 * de-identified text when SDP alone matched, otherwise block) or log-only.
			 */
			private MatchAction onMatch = MatchAction.BLOCK;

			/**
			 * What a blocked document does: drop (left out of the prompt; the answer's context says how many
			 * and by which filters) or throw (the whole call fails).
			 */
			private OnBlockedDocument onBlock = OnBlockedDocument.DROP;

			public boolean isEnabled() {
				return this.enabled;
			}

			public void setEnabled(boolean enabled) {
				this.enabled = enabled;
			}

			public @Nullable String getTemplate() {
				return this.template;
			}

			public void setTemplate(@Nullable String template) {
				this.template = template;
			}

			public MatchAction getOnMatch() {
				return this.onMatch;
			}

			public void setOnMatch(MatchAction onMatch) {
				this.onMatch = onMatch;
			}

			public OnBlockedDocument getOnBlock() {
				return this.onBlock;
			}

			public void setOnBlock(OnBlockedDocument onBlock) {
				this.onBlock = onBlock;
			}

		}

		/**
		 * Screening of tool calls and their results in Spring AI's tool calling.
		 */
		public static class Tools {

			/**
			 * Whether to screen every tool that Spring AI's tool calling runs: the arguments the model wrote
			 * before the tool runs, the result before the model reads it. Whether a tool call that cannot be
			 * screened is blocked comes from modelarmor.guard.fail-open.
			 */
			private boolean enabled;

			/**
			 * Template the tool calls and results are screened with. When unset or empty:
			 * modelarmor.template-id.
			 */
			private @Nullable String template;

			/**
			 * What a match does: block, deidentify (go on with Sensitive Data Protection's de-identified
			 * result when SDP alone matched; arguments are JSON and block) or log-only.
			 */
			private MatchAction onMatch = MatchAction.BLOCK;

			/**
			 * What a blocked tool call or result does: refuse (the tool does not run, or its result is
			 * withheld, and the model reads the refusal as the tool's result) or throw (the whole call fails).
			 */
			private OnBlockedTool onBlock = OnBlockedTool.REFUSE;

			/**
			 * What the model reads as a blocked tool's result when on-block is refuse. Never names the content.
			 */
			private String refusal = ModelArmorToolOptions.DEFAULT_REFUSAL;

			public boolean isEnabled() {
				return this.enabled;
			}

			public void setEnabled(boolean enabled) {
				this.enabled = enabled;
			}

			public @Nullable String getTemplate() {
				return this.template;
			}

			public void setTemplate(@Nullable String template) {
				this.template = template;
			}

			public MatchAction getOnMatch() {
				return this.onMatch;
			}

			public void setOnMatch(MatchAction onMatch) {
				this.onMatch = onMatch;
			}

			public OnBlockedTool getOnBlock() {
				return this.onBlock;
			}

			public void setOnBlock(OnBlockedTool onBlock) {
				this.onBlock = onBlock;
			}

			public String getRefusal() {
				return this.refusal;
			}

			public void setRefusal(String refusal) {
				this.refusal = refusal;
			}

		}

	}

	/**
	 * The verdict cache: the verdict of a text already screened with the same template is reused, through
	 * the application's Spring CacheManager, for a bounded time.
	 */
	public static class Cache {

		/**
		 * Whether to cache verdicts. Needs a CacheManager (spring-boot-starter-cache with @EnableCaching,
		 * or a CacheManager bean).
		 */
		private boolean enabled;

		/**
		 * Name of the cache that holds the verdicts.
		 */
		private String name = VerdictCache.DEFAULT_NAME;

		/**
		 * How long a verdict is reused, at most 24h. A template changed outside this application is
		 * seen only after it.
		 */
		private Duration timeToLive = VerdictCache.DEFAULT_TIME_TO_LIVE;

		/**
		 * The longest one lookup, write or clear of the cache may hold a screening, at most 5s; a cache
		 * that takes longer is a miss. Never more than the retry deadline.
		 */
		private Duration operationTimeout = VerdictCache.DEFAULT_OPERATION_TIMEOUT;

		/**
		 * Failures (errors or timeouts) in a row after which the cache is skipped for skip-for.
		 */
		private int failuresToSkip = VerdictCache.DEFAULT_FAILURES_TO_SKIP;

		/**
		 * How long a failing cache is skipped before it is tried again.
		 */
		private Duration skipFor = VerdictCache.DEFAULT_SKIP_FOR;

		/**
		 * Key (Base64, at least 32 bytes: openssl rand -base64 32) that stored keys are computed with
		 * and values signed with (HmacSHA256). Required for a cache outside this process (Redis, ...); the
		 * same on every instance that shares the cache. An in-process cache without it uses a random key.
		 */
		private @Nullable String signingKey;

		/**
		 * Keys that signed before signing-key was rotated: values signed with one are a miss and screened
		 * again, not reported as forgeries.
		 */
		private List<String> previousSigningKeys = new ArrayList<>();

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public String getName() {
			return this.name;
		}

		public void setName(String name) {
			this.name = name;
		}

		public Duration getTimeToLive() {
			return this.timeToLive;
		}

		public void setTimeToLive(Duration timeToLive) {
			this.timeToLive = timeToLive;
		}

		public Duration getOperationTimeout() {
			return this.operationTimeout;
		}

		public void setOperationTimeout(Duration operationTimeout) {
			this.operationTimeout = operationTimeout;
		}

		public int getFailuresToSkip() {
			return this.failuresToSkip;
		}

		public void setFailuresToSkip(int failuresToSkip) {
			this.failuresToSkip = failuresToSkip;
		}

		public Duration getSkipFor() {
			return this.skipFor;
		}

		public void setSkipFor(Duration skipFor) {
			this.skipFor = skipFor;
		}

		public @Nullable String getSigningKey() {
			return this.signingKey;
		}

		public void setSigningKey(@Nullable String signingKey) {
			this.signingKey = signingKey;
		}

		public List<String> getPreviousSigningKeys() {
			return this.previousSigningKeys;
		}

		public void setPreviousSigningKeys(List<String> previousSigningKeys) {
			this.previousSigningKeys = previousSigningKeys;
		}

	}

	/**
	 * The project's Model Armor quota, kept by the starter so that the calls of every instance stay within
	 * it: shared through Redis when the application has a Lettuce RedisConnectionFactory, in this process
	 * otherwise. Every HTTP attempt, retries included, takes a permit.
	 */
	public static class Quota {

		/**
		 * Whether calls take a permit of the quota before each attempt. A call that cannot get one within
		 * max-wait and its deadline is not screened (outcome quota_exhausted).
		 */
		private boolean enabled;

		/**
		 * The project's quota, from 2 to 1000000 queries per minute; never more are sent in any minute.
		 */
		private int queriesPerMinute = QuotaSettings.DEFAULTS.queriesPerMinute();

		/**
		 * The longest a call waits for a permit, never more than what is left of its deadline. Zero does
		 * not wait.
		 */
		private Duration maxWait = QuotaSettings.DEFAULTS.maxWait();

		/**
		 * The longest one Redis operation of the shared quota may take, from 1ms to 10s; past it (or when
		 * Redis fails) the quota is kept in this process for a few seconds.
		 */
		private Duration redisTimeout = QuotaSettings.DEFAULTS.redisTimeout();

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public int getQueriesPerMinute() {
			return this.queriesPerMinute;
		}

		public void setQueriesPerMinute(int queriesPerMinute) {
			this.queriesPerMinute = queriesPerMinute;
		}

		public Duration getMaxWait() {
			return this.maxWait;
		}

		public void setMaxWait(Duration maxWait) {
			this.maxWait = maxWait;
		}

		public Duration getRedisTimeout() {
			return this.redisTimeout;
		}

		public void setRedisTimeout(Duration redisTimeout) {
			this.redisTimeout = redisTimeout;
		}

	}

	/**
	 * The circuit breaker of each instance: while most recent attempts fail (5xx, no answer), calls fail at
	 * once as not screened (outcome circuit_open) instead of waiting out their deadline.
	 */
	public static class CircuitBreaker {

		/**
		 * Whether attempts go through a circuit breaker.
		 */
		private boolean enabled = true;

		/**
		 * Percentage of failed attempts, above 0 and at most 100, that opens the breaker.
		 */
		private float failureRateThreshold = CircuitBreakerSettings.DEFAULTS.failureRateThreshold();

		/**
		 * Number of recent attempts, from 2 to 10000, over which the failure rate is computed; also the
		 * fewest before the breaker can open.
		 */
		private int windowSize = CircuitBreakerSettings.DEFAULTS.windowSize();

		/**
		 * How long the breaker stays open before probes are let through, from 1ms to 1h.
		 */
		private Duration waitInOpenState = CircuitBreakerSettings.DEFAULTS.waitInOpenState();

		/**
		 * Attempts let through while half-open, from 1 to 100; their failure rate closes or reopens it.
		 */
		private int halfOpenProbes = CircuitBreakerSettings.DEFAULTS.halfOpenProbes();

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public float getFailureRateThreshold() {
			return this.failureRateThreshold;
		}

		public void setFailureRateThreshold(float failureRateThreshold) {
			this.failureRateThreshold = failureRateThreshold;
		}

		public int getWindowSize() {
			return this.windowSize;
		}

		public void setWindowSize(int windowSize) {
			this.windowSize = windowSize;
		}

		public Duration getWaitInOpenState() {
			return this.waitInOpenState;
		}

		public void setWaitInOpenState(Duration waitInOpenState) {
			this.waitInOpenState = waitInOpenState;
		}

		public int getHalfOpenProbes() {
			return this.halfOpenProbes;
		}

		public void setHalfOpenProbes(int halfOpenProbes) {
			this.halfOpenProbes = halfOpenProbes;
		}

	}

}
