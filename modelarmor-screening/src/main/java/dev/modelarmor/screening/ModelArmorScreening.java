package dev.modelarmor.screening;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import dev.modelarmor.client.ModelArmorOperations;
import dev.modelarmor.client.SanitizationResult;
import dev.modelarmor.client.SanitizeOptions;
import dev.modelarmor.client.TemplateReference;
import dev.modelarmor.internal.Futures;
import dev.modelarmor.screening.cache.VerdictCache;
import dev.modelarmor.screening.media.MediaItem;
import dev.modelarmor.screening.media.MediaItems;
import dev.modelarmor.screening.media.UnscreenableMedia;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;
import org.springframework.util.StringUtils;

/**
 * The one way the starter's integrations screen: {@code @ModelArmorGuarded} methods, the Spring AI
 * advisor, documents, tools and streams all hand a {@link ScreeningRequest} to this bean and get a
 * {@link ScreeningDecision} back, to go on, go on with de-identified text, or refuse.
 *
 * <p>It owns, each in one place: the screening of long text in windows (on the
 * {@link ModelArmorTaskExecutor}), the verdict cache ({@link #withCache(VerdictCache)}), fail-open or
 * fail-closed, the {@link ScreeningObserver} and what a result means for the call (the {@code sdp} rule,
 * the match action, refusals of the input itself). {@link #screen(ScreeningRequest)} screens on the
 * calling thread (the windows of a long text on the executor); {@link #screenAsync(ScreeningRequest)}
 * without blocking its caller: over a client with a non-blocking path
 * ({@link ModelArmorOperations#isNonBlocking()}, as the starter's {@code ModelArmorTemplate}) no thread is
 * held while a call or a retry wait is in flight, and cancelling the returned future cancels the calls in
 * flight; over another client, on the executor. Every call is bounded by the client's retry deadline.
 * Thread-safe.
 */
public final class ModelArmorScreening implements AutoCloseable {

	/**
	 * The log lines of each outcome (blocked, not_screened, input_rejected, ...) written in full each second
	 * unless {@link Builder#logLinesPerSecond(int)} says otherwise.
	 */
	public static final int DEFAULT_LOG_LINES_PER_SECOND = 10;

	/** The long-text screening and the client of each template the calls name. */
	private final TemplateCalls calls;

	private final ScreeningDecider decider;

	private final ModelArmorTaskExecutor executor;

	private final boolean ownsExecutor;

	private final UnscreenableMedia unscreenableMedia;

	private final ModelArmorTemplateResolver templateResolver;

	private ModelArmorScreening(TemplateCalls calls, ScreeningDecider decider, ModelArmorTaskExecutor executor,
			boolean ownsExecutor, UnscreenableMedia unscreenableMedia, ModelArmorTemplateResolver templateResolver) {
		this.unscreenableMedia = unscreenableMedia;
		this.templateResolver = templateResolver;
		this.calls = calls;
		this.decider = decider;
		this.executor = executor;
		this.ownsExecutor = ownsExecutor;
	}

	/**
	 * Starts a screening over a client.
	 * @param operations the Model Armor client, bound to the default template
	 * @return a builder
	 */
	public static Builder builder(ModelArmorOperations operations) {
		return new Builder(operations);
	}

	/**
	 * The same screening, looking verdicts of whole texts up in a cache before screening them, and storing
	 * those it may keep. It shares this one's executor: close this one, not it.
	 * @param cache the verdict cache
	 * @return a screening that uses it, for every template
	 */
	public ModelArmorScreening withCache(VerdictCache cache) {
		return new ModelArmorScreening(this.calls.withCache(cache), this.decider, this.executor, false,
				this.unscreenableMedia, this.templateResolver);
	}

	/**
	 * Screens on the calling thread and decides.
	 * @param request what to screen and how to decide
	 * @return the decision
	 */
	public ScreeningDecision screen(ScreeningRequest request) {
		Objects.requireNonNull(request, "request must not be null");
		TemplateCalls.Bound bound = this.calls.bound(request.template());
		return this.decider.screen(request, () -> bound.call(request));
	}

	/**
	 * Screens without blocking the caller and decides. Over a client with a non-blocking path
	 * ({@link ModelArmorOperations#isNonBlocking()}) no thread is held while a call or a retry wait is in
	 * flight (only a verdict cache is asked on the {@link ModelArmorTaskExecutor}); over another client the
	 * screening runs on the executor, or, when every thread of it is busy or it is closed, on the calling
	 * thread before this returns. Cancelling the returned future cancels the calls in flight. A failure that
	 * is no screening failure (a bug, a client that returned {@code null}) fails the future;
	 * {@link #await(CompletableFuture)} rethrows it.
	 * @param request what to screen and how to decide
	 * @return the decision, once made
	 */
	public CompletableFuture<ScreeningDecision> screenAsync(ScreeningRequest request) {
		Objects.requireNonNull(request, "request must not be null");
		CompletableFuture<SanitizationResult> result;
		try {
			CompletableFuture<SanitizationResult> call = this.calls.bound(request.template()).callAsync(request);
			// a client that returns no future fails the screening rather than the caller's thread
			result = (call != null) ? call
					: CompletableFuture.failedFuture(new IllegalStateException("The client's call returned no future"));
		}
		catch (RuntimeException ex) {
			result = CompletableFuture.failedFuture(ex);
		}
		CompletableFuture<SanitizationResult> calls = result;
		CompletableFuture<ScreeningDecision> decision = result.handle((sanitized, failure) -> this.decider.decide(request,
				sanitized, Futures.unwrapNullable(failure)));
		decision.whenComplete((decided, failure) -> {
			if (decision.isCancelled()) {
				calls.cancel(true);
			}
		});
		return decision;
	}

	/**
	 * Screens on the calling thread with the template the {@link ModelArmorTemplateResolver} chooses for the
	 * call, unless the request names one itself; a tenant the resolver refuses is a refusal
	 * ({@link #unknownTenant(ScreeningRequest)}).
	 * @param request what to screen and how to decide
	 * @param tenant the request's tenant ({@link ModelArmorTenant}), or {@code null}
	 * @param attributes the integration's attributes for the resolver, e.g. the advisor context
	 * @return the decision
	 */
	public ScreeningDecision screen(ScreeningRequest request, @Nullable String tenant,
			Map<String, ? extends @Nullable Object> attributes) {
		ScreeningRequest resolved;
		try {
			resolved = resolve(request, tenant, attributes);
		}
		catch (ModelArmorUnknownTenantException ex) {
			return unknownTenant(request);
		}
		return screen(resolved);
	}

	/**
	 * Screens without blocking the caller, as {@link #screenAsync(ScreeningRequest)}, with the template the
	 * {@link ModelArmorTemplateResolver} chooses, as {@link #screen(ScreeningRequest, String, Map)}.
	 * @param request what to screen and how to decide
	 * @param tenant the request's tenant, or {@code null}
	 * @param attributes the integration's attributes for the resolver
	 * @return the decision, once made
	 */
	public CompletableFuture<ScreeningDecision> screenAsync(ScreeningRequest request, @Nullable String tenant,
			Map<String, ? extends @Nullable Object> attributes) {
		ScreeningRequest resolved;
		try {
			resolved = resolve(request, tenant, attributes);
		}
		catch (ModelArmorUnknownTenantException ex) {
			return CompletableFuture.completedFuture(unknownTenant(request));
		}
		return screenAsync(resolved);
	}

	/**
	 * The request with the template the resolver chooses, unless it names one itself.
	 * @param request the request
	 * @param tenant the request's tenant, or {@code null}
	 * @param attributes the integration's attributes
	 * @return the request to screen
	 * @throws ModelArmorUnknownTenantException when the resolver refuses the tenant
	 */
	public ScreeningRequest resolve(ScreeningRequest request, @Nullable String tenant,
			Map<String, ? extends @Nullable Object> attributes) {
		if (StringUtils.hasLength(request.template())) {
			return request;
		}
		Map<String, Object> copied = new java.util.HashMap<>();
		attributes.forEach((key, value) -> {
			if (value != null) {
				copied.put(key, value);
			}
		});
		TemplateReference template = this.templateResolver
			.resolve(new TemplateContext(request.phase(), request.caller(), tenant, copied));
		return (template != null) ? request.withTemplate(template.name()) : request;
	}

	/**
	 * Refuses a call whose tenant has no template: blocked whatever fail-open says, with one WARN line (the
	 * caller and the phase, never the tenant's name as sent, nor any content) and a metric.
	 * @param request the call refused
	 * @return the refusal
	 */
	public ScreeningDecision unknownTenant(ScreeningRequest request) {
		return this.decider.unknownTenant(request);
	}

	/**
	 * The resolver that chooses each call's template.
	 * @return the resolver; {@link ModelArmorTemplateResolver#DEFAULT} unless the builder was given one
	 */
	public ModelArmorTemplateResolver templateResolver() {
		return this.templateResolver;
	}

	/**
	 * Decides for media of a prompt that Model Armor cannot screen ({@link MediaItems}): blocked, or with
	 * {@link UnscreenableMedia#ALLOW} let through unscreened, each time with a WARN line and a metric; media
	 * too large to screen is blocked in every mode. Nothing is sent.
	 * @param caller names the calling code in log lines
	 * @param phase which side
	 * @param template the template it would have been screened with, or {@code null} for the client's own
	 * @param media the media
	 * @return the decision
	 */
	public ScreeningDecision unscreened(String caller, Phase phase, @Nullable String template,
			MediaItem.Unscreened media) {
		return this.decider.unscreened(caller, phase, template, media, this.unscreenableMedia);
	}

	/**
	 * Waits for the decision of {@link #screenAsync(ScreeningRequest)}, which its client's retry deadline
	 * bounds, and throws what it failed with as it was thrown.
	 * @param decision the screening started
	 * @return the decision
	 */
	public static ScreeningDecision await(CompletableFuture<ScreeningDecision> decision) {
		try {
			return decision.join();
		}
		catch (CompletionException ex) {
			Throwable cause = Futures.unwrapNullable(ex);
			if (cause instanceof RuntimeException runtime) {
				throw runtime;
			}
			if (cause instanceof Error error) {
				throw error;
			}
			throw ex;
		}
	}

	/**
	 * The executor the windows and asynchronous screenings run on.
	 * @return the executor
	 */
	public ModelArmorTaskExecutor executor() {
		return this.executor;
	}

	/** Closes the executor when this screening made it itself; one given to the builder is its owner's. */
	@Override
	public void close() {
		if (this.ownsExecutor) {
			this.executor.close();
		}
	}

	/**
	 * Builds a {@link ModelArmorScreening}.
	 */
	public static final class Builder {

		private final ModelArmorOperations operations;

		private WindowSettings windows = WindowSettings.DEFAULTS;

		private @Nullable ModelArmorTaskExecutor executor;

		private BooleanSupplier failOpen = () -> false;

		private Supplier<ScreeningObserver> observer = () -> ScreeningObserver.NONE;

		private UnscreenableMedia unscreenableMedia = UnscreenableMedia.BLOCK;

		private SanitizeOptions sanitizeOptions = SanitizeOptions.NONE;

		private ModelArmorTemplateResolver templateResolver = ModelArmorTemplateResolver.DEFAULT;

		private int logLinesPerSecond = DEFAULT_LOG_LINES_PER_SECOND;

		private Builder(ModelArmorOperations operations) {
			Assert.notNull(operations, "operations must not be null");
			this.operations = operations;
		}

		/**
		 * How long text is cut into windows; {@link WindowSettings#DEFAULTS} unless set.
		 * @param windows the windows
		 * @return this builder
		 */
		public Builder windows(WindowSettings windows) {
			Assert.notNull(windows, "windows must not be null");
			this.windows = windows;
			return this;
		}

		/**
		 * Where windows and asynchronous screenings run; unless set, the screening makes one of
		 * {@link ModelArmorTaskExecutor#DEFAULT_CONCURRENCY} threads that {@link ModelArmorScreening#close()} ends.
		 * @param executor the executor, closed by its owner
		 * @return this builder
		 */
		public Builder executor(ModelArmorTaskExecutor executor) {
			Assert.notNull(executor, "executor must not be null");
			this.executor = executor;
			return this;
		}

		/**
		 * Whether screening that cannot complete lets the call through; read at each such screening.
		 * Fail-closed unless set.
		 * @param failOpen whether to fail open
		 * @return this builder
		 */
		public Builder failOpen(BooleanSupplier failOpen) {
			Assert.notNull(failOpen, "failOpen must not be null");
			this.failOpen = failOpen;
			return this;
		}

		/**
		 * Who is told of every decision, looked up at each; {@link ScreeningObserver#NONE} unless set.
		 * @param observer the observer
		 * @return this builder
		 */
		public Builder observer(Supplier<ScreeningObserver> observer) {
			Assert.notNull(observer, "observer must not be null");
			this.observer = observer;
			return this;
		}

		/**
		 * What media that Model Armor cannot screen does; {@link UnscreenableMedia#BLOCK} unless set.
		 * @param unscreenableMedia block it, or let it through unscreened
		 * @return this builder
		 */
		public Builder unscreenableMedia(UnscreenableMedia unscreenableMedia) {
			Assert.notNull(unscreenableMedia, "unscreenableMedia must not be null");
			this.unscreenableMedia = unscreenableMedia;
			return this;
		}

		/**
		 * The options every sanitize call of this screening carries (multi-language detection, the source
		 * language); {@link SanitizeOptions#NONE} (the template's settings) unless set.
		 * @param sanitizeOptions the options
		 * @return this builder
		 */
		public Builder sanitizeOptions(SanitizeOptions sanitizeOptions) {
			Assert.notNull(sanitizeOptions, "sanitizeOptions must not be null");
			this.sanitizeOptions = sanitizeOptions;
			return this;
		}

		/**
		 * What chooses the template of a call that names none ({@link ModelArmorScreening#screen(ScreeningRequest, String, Map)}).
		 * @param templateResolver the resolver
		 * @return this builder
		 */
		public Builder templateResolver(ModelArmorTemplateResolver templateResolver) {
			Assert.notNull(templateResolver, "templateResolver must not be null");
			this.templateResolver = templateResolver;
			return this;
		}

		/**
		 * How many log lines of each outcome are written in full each second, so that a storm of refusals does
		 * not become a storm of log lines: beyond them, lines are counted, and the next second's first line of
		 * the outcome is preceded by one line with the count. The meters count every call.
		 * {@link #DEFAULT_LOG_LINES_PER_SECOND} unless set.
		 * @param logLinesPerSecond the lines, at least 1
		 * @return this builder
		 */
		public Builder logLinesPerSecond(int logLinesPerSecond) {
			Assert.isTrue(logLinesPerSecond >= 1, "logLinesPerSecond must be at least 1");
			this.logLinesPerSecond = logLinesPerSecond;
			return this;
		}

		/**
		 * Builds the screening.
		 * @return the screening
		 */
		public ModelArmorScreening build() {
			ModelArmorTaskExecutor given = this.executor;
			ModelArmorTaskExecutor executor = (given != null) ? given
					: ModelArmorTaskExecutor.platformThreads("modelarmor-", ModelArmorTaskExecutor.DEFAULT_CONCURRENCY,
							ModelArmorTaskExecutor.DEFAULT_QUEUE_CAPACITY, null);
			ModelArmorOperations operations = SanitizeOptions.NONE.equals(this.sanitizeOptions) ? this.operations
					: new OptionsApplyingOperations(this.operations, this.sanitizeOptions);
			return new ModelArmorScreening(new TemplateCalls(new LongTextScreening(operations, this.windows, executor), executor),
					new ScreeningDecider(this.failOpen, this.observer, new LogLineRate(this.logLinesPerSecond, System::nanoTime),
							this.operations.templateName()),
					executor, given == null, this.unscreenableMedia,
					this.templateResolver);
		}

	}

}
