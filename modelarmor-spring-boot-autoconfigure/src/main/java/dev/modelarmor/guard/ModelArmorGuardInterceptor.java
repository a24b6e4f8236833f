package dev.modelarmor.guard;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import dev.modelarmor.client.WindowedScreening;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.support.AopUtils;
import org.springframework.util.function.SingletonSupplier;

/**
 * Screens the prompt of a {@link ModelArmorGuarded} method before it runs and its answer after; the
 * {@link Screener} decides what a result means for the call.
 */
final class ModelArmorGuardInterceptor implements MethodInterceptor, AutoCloseable {

	private final GuardedMethods methods;

	private final Supplier<WindowedScreening> screening;

	/** The screening of each template an annotation names, built at its first call and shared. */
	private final Map<String, WindowedScreening> byTemplate = new ConcurrentHashMap<>();

	private final Screener screener;

	/** Screens the prompts of side-effect-free methods while they run; started at the first such call. */
	private final Supplier<ParallelPromptScreening> parallel = SingletonSupplier.of(this::startParallel);

	private volatile boolean parallelStarted;

	/**
	 * Creates an interceptor.
	 * @param methods resolves guarded methods
	 * @param screening screens text of any length with the default template, looked up at the first call
	 * @param failOpen whether screening that cannot complete lets the call through
	 * @param observer told of every screening, looked up at the first call
	 */
	ModelArmorGuardInterceptor(GuardedMethods methods, Supplier<WindowedScreening> screening,
			BooleanSupplier failOpen, Supplier<ScreeningObserver> observer) {
		this.methods = methods;
		this.screening = screening;
		this.screener = new Screener(failOpen, observer);
	}

	@Override
	public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
		Method method = invocation.getMethod();
		Object target = invocation.getThis();
		GuardedMethod guarded = this.methods.find(method,
				(target != null) ? AopUtils.getTargetClass(target) : method.getDeclaringClass());
		if (guarded == null) {
			return invocation.proceed();
		}
		WindowedScreening client = guarded.template().isEmpty() ? this.screening.get()
				: this.byTemplate.computeIfAbsent(guarded.template(), (template) -> this.screening.get().withTemplate(template));
		@Nullable Object[] arguments = invocation.getArguments();
		PromptSource promptSource = guarded.prompt();
		String prompt = (promptSource != null) ? promptSource.read(method, arguments) : null;
		if (guarded.parallel() && promptSource != null && prompt != null) {
			String promptText = prompt;
			return proceedWhileScreening(invocation, guarded, client, promptText, this.parallel.get()
				.start(() -> this.screener.screen(guarded.name(), Phase.PROMPT, guarded.onMatch(), false,
						() -> client.sanitizeUserPrompt(promptText))));
		}
		if (guarded.screenPrompt() && promptSource != null && prompt != null) {
			String promptText = prompt;
			String replacement = proceedWith(this.screener.screen(guarded.name(), Phase.PROMPT, guarded.onMatch(),
					promptSource.replaceable(), () -> client.sanitizeUserPrompt(promptText)));
			if (replacement != null) {
				promptSource.replace(arguments, replacement);
				prompt = replacement;
			}
		}
		return screenResponse(invocation, guarded, client, prompt, invocation.proceed());
	}

	/**
	 * The body runs on the caller's thread while the prompt is screened on the pool; what it returned, or
	 * threw, is dropped unless the prompt passed. The prompt is never de-identified here: that combination
	 * fails at startup.
	 */
	private @Nullable Object proceedWhileScreening(MethodInvocation invocation, GuardedMethod guarded,
			WindowedScreening client, String prompt, CompletableFuture<ScreeningDecision> verdict) throws Throwable {
		Object returned = null;
		Throwable failure = null;
		try {
			returned = invocation.proceed();
		}
		catch (Throwable ex) {
			failure = ex;
		}
		proceedWith(ParallelPromptScreening.await(verdict));
		if (failure != null) {
			throw failure;
		}
		return screenResponse(invocation, guarded, client, prompt, returned);
	}

	private @Nullable Object screenResponse(MethodInvocation invocation, GuardedMethod guarded,
			WindowedScreening client, @Nullable String prompt, @Nullable Object returned) {
		ResponseSource responseSource = guarded.response();
		String response = (responseSource != null)
				? responseSource.read(invocation.getMethod(), invocation.getArguments(), returned) : null;
		if (responseSource == null || response == null) {
			return returned;
		}
		String userPrompt = prompt;
		String replacement = proceedWith(this.screener.screen(guarded.name(), Phase.RESPONSE, guarded.onMatch(),
				responseSource.replaceable(), () -> client.sanitizeModelResponse(response, userPrompt)));
		return (replacement != null) ? responseSource.replace(replacement) : returned;
	}

	/** Shuts the pool of parallel prompt screening down, when one was started. */
	@Override
	public void close() {
		if (this.parallelStarted) {
			this.parallel.get().close();
		}
	}

	private ParallelPromptScreening startParallel() {
		this.parallelStarted = true;
		return new ParallelPromptScreening();
	}

	/**
	 * A guarded method goes on, with de-identified text or unchanged, or throws the refusal's exception.
	 * @param decision the screener's decision
	 * @return the text to go on with, or {@code null} to go on unchanged
	 */
	private static @Nullable String proceedWith(ScreeningDecision decision) {
		if (decision instanceof ScreeningDecision.Refusal refusal) {
			throw refusal.exception();
		}
		return (decision instanceof ScreeningDecision.Deidentified deidentified) ? deidentified.text() : null;
	}

}
