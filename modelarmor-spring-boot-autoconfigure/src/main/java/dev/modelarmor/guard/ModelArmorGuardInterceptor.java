package dev.modelarmor.guard;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import dev.modelarmor.client.WindowedScreening;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.support.AopUtils;

/**
 * Screens the prompt of a {@link ModelArmorGuarded} method before it runs and its answer after; the
 * {@link Screener} decides what a result means for the call.
 */
final class ModelArmorGuardInterceptor implements MethodInterceptor {

	private final GuardedMethods methods;

	private final Supplier<WindowedScreening> screening;

	/** The screening of each template an annotation names, built at its first call and shared. */
	private final Map<String, WindowedScreening> byTemplate = new ConcurrentHashMap<>();

	private final Screener screener;

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
		if (guarded.screenPrompt() && promptSource != null && prompt != null) {
			String promptText = prompt;
			String replacement = proceedWith(this.screener.screen(guarded.name(), Phase.PROMPT, guarded.onMatch(),
					promptSource.replaceable(), () -> client.sanitizeUserPrompt(promptText)));
			if (replacement != null) {
				promptSource.replace(arguments, replacement);
				prompt = replacement;
			}
		}
		Object returned = invocation.proceed();
		ResponseSource responseSource = guarded.response();
		String response = (responseSource != null) ? responseSource.read(method, arguments, returned) : null;
		if (responseSource == null || response == null) {
			return returned;
		}
		String userPrompt = prompt;
		String replacement = proceedWith(this.screener.screen(guarded.name(), Phase.RESPONSE, guarded.onMatch(),
				responseSource.replaceable(), () -> client.sanitizeModelResponse(response, userPrompt)));
		return (replacement != null) ? responseSource.replace(replacement) : returned;
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
