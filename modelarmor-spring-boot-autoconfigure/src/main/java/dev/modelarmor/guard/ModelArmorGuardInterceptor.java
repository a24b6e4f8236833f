package dev.modelarmor.guard;

import java.lang.reflect.Method;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import dev.modelarmor.client.InvocationResult;
import dev.modelarmor.client.ModelArmorException;
import dev.modelarmor.client.ModelArmorOperations;
import dev.modelarmor.client.SanitizationResult;
import dev.modelarmor.retry.CallOutcome;
import dev.modelarmor.retry.FailureClassifier;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.support.AopUtils;

/**
 * Screens the prompt of a {@link ModelArmorGuarded} method before it runs and its answer after, and
 * applies the method's {@link MatchAction}. Screening that cannot complete blocks the call unless
 * fail-open is set. Log lines name the method, the phase and the filters, never the content.
 */
final class ModelArmorGuardInterceptor implements MethodInterceptor {

	private static final Log logger = LogFactory.getLog(ModelArmorGuardInterceptor.class);

	private static final Set<String> SDP_ONLY = Set.of("sdp");

	private final GuardedMethods methods;

	private final Supplier<ModelArmorOperations> operations;

	private final BooleanSupplier failOpen;

	private final Supplier<ScreeningObserver> observer;

	/**
	 * Creates an interceptor.
	 * @param methods resolves guarded methods
	 * @param operations the Model Armor client, looked up at the first call
	 * @param failOpen whether screening that cannot complete lets the call through
	 * @param observer told of every screening, looked up at the first call
	 */
	ModelArmorGuardInterceptor(GuardedMethods methods, Supplier<ModelArmorOperations> operations,
			BooleanSupplier failOpen, Supplier<ScreeningObserver> observer) {
		this.methods = methods;
		this.operations = operations;
		this.failOpen = failOpen;
		this.observer = observer;
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
		ModelArmorOperations client = guarded.template().isEmpty() ? this.operations.get()
				: this.operations.get().withTemplate(guarded.template());
		Object[] arguments = invocation.getArguments();
		String prompt = (guarded.prompt() != null) ? guarded.prompt().read(method, arguments) : null;
		if (guarded.screenPrompt() && prompt != null) {
			String promptText = prompt;
			SanitizationResult result = screen(guarded, Phase.PROMPT, () -> client.sanitizeUserPrompt(promptText));
			String replacement = (result != null && result.matchFound())
					? onMatch(guarded, Phase.PROMPT, result, guarded.prompt().replaceable()) : null;
			if (replacement != null) {
				guarded.prompt().replace(arguments, replacement);
				prompt = replacement;
			}
		}
		Object returned = invocation.proceed();
		ResponseSource responseSource = guarded.response();
		String response = (responseSource != null) ? responseSource.read(method, arguments, returned) : null;
		if (response == null) {
			return returned;
		}
		String userPrompt = prompt;
		SanitizationResult result = screen(guarded, Phase.RESPONSE,
				() -> (userPrompt != null) ? client.sanitizeModelResponse(response, userPrompt)
						: client.sanitizeModelResponse(response));
		String replacement = (result != null && result.matchFound())
				? onMatch(guarded, Phase.RESPONSE, result, responseSource.replaceable()) : null;
		return (replacement != null) ? responseSource.replace(replacement) : returned;
	}

	/**
	 * Calls Model Armor. A result that matched, or for which every filter ran, is returned; otherwise the
	 * call is blocked, or with fail-open let through by returning {@code null}.
	 */
	private @Nullable SanitizationResult screen(GuardedMethod guarded, Phase phase,
			Supplier<SanitizationResult> call) {
		SanitizationResult result;
		try {
			result = call.get();
		}
		catch (ModelArmorException ex) {
			return notScreened(guarded, phase,
					FailureClassifier.describe(ex) + " after " + ex.attempts() + " attempt(s)", ex.attempts(), ex);
		}
		if (result.matchFound()) {
			return result;
		}
		if (fullyScreened(result)) {
			this.observer.get().screened(phase, ScreeningResult.ALLOWED, Set.of());
			return result;
		}
		return notScreened(guarded, phase, "invocationResult " + result.invocationResult(), 0, null);
	}

	private static boolean fullyScreened(SanitizationResult result) {
		return result.invocationResult() == InvocationResult.SUCCESS
				|| (result.invocationResult() == InvocationResult.PARTIAL
						&& result.sanitizationMetadata().ignorePartialInvocationFailures());
	}

	private @Nullable SanitizationResult notScreened(GuardedMethod guarded, Phase phase, String reason, int attempts,
			@Nullable Throwable cause) {
		if (!this.failOpen.getAsBoolean()) {
			this.observer.get().screened(phase, ScreeningResult.FAILED_CLOSED, Set.of());
			throw new ModelArmorNotScreenedException(phase, reason, attempts, cause);
		}
		this.observer.get().screened(phase, ScreeningResult.FAILED_OPEN, Set.of());
		logger.warn(String.format("Model Armor could not screen a call, letting it through (fail-open): method=\"%s\" "
				+ "phase=%s reason=\"%s\" outcome=%s", guarded.name(), phase, reason, CallOutcome.NOT_SCREENED.tag()));
		return null;
	}

	private ModelArmorViolationException blocked(Phase phase, SanitizationResult result) {
		this.observer.get().screened(phase, ScreeningResult.BLOCKED, result.matchedFilters());
		return new ModelArmorViolationException(phase, result);
	}

	/**
	 * Applies the method's match action.
	 * @return de-identified text to go on with, or {@code null} to go on unchanged
	 */
	private @Nullable String onMatch(GuardedMethod guarded, Phase phase, SanitizationResult result,
			boolean replaceable) {
		switch (guarded.onMatch()) {
			case LOG_ONLY -> {
				this.observer.get().screened(phase, ScreeningResult.LOGGED, result.matchedFilters());
				logger.info(String.format("Model Armor matched, continuing (onMatch=LOG_ONLY): method=\"%s\" phase=%s "
						+ "filters=[%s]", guarded.name(), phase, String.join(",", result.matchedFilters())));
				return null;
			}
			case DEIDENTIFY -> {
				if (replaceable && result.matchedFilters().equals(SDP_ONLY) && result.deidentifiedText().isPresent()) {
					this.observer.get().screened(phase, ScreeningResult.DEIDENTIFIED, result.matchedFilters());
					logger.info(String.format("Model Armor de-identified sensitive data: method=\"%s\" phase=%s",
							guarded.name(), phase));
					return result.deidentifiedText().get();
				}
				throw blocked(phase, result);
			}
			default -> throw blocked(phase, result);
		}
	}

}
