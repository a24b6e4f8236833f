package dev.modelarmor.guard;

import java.lang.reflect.Method;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import dev.modelarmor.screening.ModelArmorScreening;
import dev.modelarmor.screening.ModelArmorTenant;
import dev.modelarmor.screening.ScreeningDecision;
import dev.modelarmor.screening.ScreeningRequest;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;

import org.springframework.aop.support.AopUtils;
import org.springframework.core.KotlinDetector;
import org.springframework.core.ReactiveAdapterRegistry;

/**
 * Screens the prompt of a {@link ModelArmorGuarded} method before it runs and its answer after, through
 * {@link ModelArmorScreening}, which decides what a result means for the call. A method that answers
 * later (a future, a {@code Mono}, a {@code Flux}, a Kotlin {@code Flow} or a Kotlin {@code suspend}
 * function, which Spring's proxies run as a {@code Mono} or a {@code Flux}) is screened without a thread waiting
 * ({@link FutureGuard}, {@link ReactiveGuard}).
 */
final class ModelArmorGuardInterceptor implements MethodInterceptor {

	private final GuardedMethods methods;

	private final Supplier<ModelArmorScreening> screening;

	private volatile @Nullable BeanFactory beans;

	/**
	 * Creates an interceptor.
	 * @param methods resolves guarded methods
	 * @param screening screens and decides, looked up at the first call
	 */
	ModelArmorGuardInterceptor(GuardedMethods methods, Supplier<ModelArmorScreening> screening) {
		this.methods = methods;
		this.screening = screening;
	}

	/**
	 * The bean factory that {@code @bean} references in a template's SpEL resolve against.
	 * @param beans the bean factory
	 */
	void setBeanFactory(BeanFactory beans) {
		this.beans = beans;
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
		if (!ReturnShape.COROUTINES_REACTOR_PRESENT && KotlinDetector.isSuspendingFunction(method)) {
			// Without it Spring's proxy would hand the screened answer's publisher to the caller unawaited.
			throw new IllegalStateException("@ModelArmorGuarded on the suspend function " + guarded.name()
					+ " needs kotlinx-coroutines-reactor on the class path");
		}
		ModelArmorScreening screening = this.screening.get();
		String tenant = ModelArmorTenant.current();
		switch (guarded.shape()) {
			case FUTURE:
				return FutureGuard.guard(new GuardedCall(invocation, guarded, screening, this.beans, tenant));
			case MONO:
				return ReactiveGuard.mono(new GuardedCall(invocation, guarded, screening, this.beans, tenant));
			case FLUX:
				return ReactiveGuard.flux(new GuardedCall(invocation, guarded, screening, this.beans, tenant));
			case FLOW:
				// Checked here, where no Reactor class is needed: the adapter exists only with Reactor and
				// kotlinx-coroutines-reactor.
				if (ReactiveAdapterRegistry.getSharedInstance().getAdapter(method.getReturnType()) == null) {
					throw new IllegalStateException("@ModelArmorGuarded " + guarded.name()
							+ " returns a Kotlin Flow: that needs kotlinx-coroutines-reactor on the class path");
				}
				return ReactiveGuard.flow(new GuardedCall(invocation, guarded, screening, this.beans, tenant));
			default:
				break;
		}
		@Nullable Object[] arguments = invocation.getArguments();
		GuardTemplates templates = new GuardTemplates(method, arguments, this.beans, tenant);
		PromptSource promptSource = guarded.prompt();
		String prompt = (promptSource != null) ? promptSource.read(method, arguments, guarded, screening, templates)
				: null;
		if (guarded.parallel() && promptSource != null && prompt != null) {
			// Never de-identified here: that combination fails at startup.
			return proceedWhileScreening(invocation, guarded, screening, prompt, templates.screenAsync(screening,
					guarded, request(guarded, ScreeningRequest.prompt(guarded.name(), prompt), false)));
		}
		if (guarded.screenPrompt() && promptSource != null && prompt != null) {
			String replacement = proceedWith(templates.screen(screening, guarded,
					request(guarded, ScreeningRequest.prompt(guarded.name(), prompt), promptSource.replaceable())));
			if (replacement != null) {
				promptSource.replace(arguments, replacement);
				prompt = replacement;
			}
		}
		return screenResponse(invocation, guarded, screening, prompt, invocation.proceed());
	}

	/**
	 * The body runs on the caller's thread while the prompt is screened on the starter's executor; what it
	 * returned, or threw, is dropped unless the prompt passed.
	 */
	private @Nullable Object proceedWhileScreening(MethodInvocation invocation, GuardedMethod guarded,
			ModelArmorScreening screening, String prompt, CompletableFuture<ScreeningDecision> verdict)
			throws Throwable {
		Object returned = null;
		Throwable failure = null;
		try {
			returned = invocation.proceed();
		}
		catch (Throwable ex) {
			failure = ex;
		}
		proceedWith(ModelArmorScreening.await(verdict));
		if (failure != null) {
			throw failure;
		}
		return screenResponse(invocation, guarded, screening, prompt, returned);
	}

	private @Nullable Object screenResponse(MethodInvocation invocation, GuardedMethod guarded,
			ModelArmorScreening screening, @Nullable String prompt, @Nullable Object returned) {
		ResponseSource responseSource = guarded.response();
		String response = (responseSource != null)
				? responseSource.read(invocation.getMethod(), invocation.getArguments(), returned) : null;
		if (responseSource == null || response == null) {
			return returned;
		}
		GuardTemplates templates = new GuardTemplates(invocation.getMethod(), invocation.getArguments(), this.beans,
				ModelArmorTenant.current());
		String replacement = proceedWith(templates.screen(screening, guarded, request(guarded,
				ScreeningRequest.response(guarded.name(), response, prompt), responseSource.replaceable())));
		return (replacement != null) ? responseSource.replace(replacement) : returned;
	}

	static ScreeningRequest request(GuardedMethod guarded, ScreeningRequest side, boolean replaceable) {
		return side.withTemplate(guarded.template()).withOnMatch(guarded.onMatch()).withReplaceable(replaceable);
	}

	/**
	 * A guarded method goes on, with de-identified text or unchanged, or throws the refusal's exception.
	 * @param decision the screening's decision
	 * @return the text to go on with, or {@code null} to go on unchanged
	 */
	private static @Nullable String proceedWith(ScreeningDecision decision) {
		if (decision instanceof ScreeningDecision.Refusal refusal) {
			throw refusal.exception();
		}
		return (decision instanceof ScreeningDecision.Deidentified deidentified) ? deidentified.text() : null;
	}

}
