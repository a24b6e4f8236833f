package dev.modelarmor.guard;

import java.lang.reflect.Method;
import java.util.concurrent.CompletableFuture;

import dev.modelarmor.screening.ModelArmorScreening;
import dev.modelarmor.screening.ScreeningDecision;
import dev.modelarmor.screening.ScreeningRequest;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;

/**
 * One call of a guarded method that answers later (a future, a {@code Mono} or a {@code Flux}): its
 * prompt and answers as screening requests, screened without a thread waiting.
 *
 * @param invocation the intercepted call, proceeded once its prompt passed
 * @param guarded the guarded method
 * @param screening the screening
 * @param beans resolves {@code @bean} references of the template's SpEL, or {@code null}
 * @param tenant the request's tenant, or {@code null}
 */
record GuardedCall(MethodInvocation invocation, GuardedMethod guarded, ModelArmorScreening screening,
		@Nullable BeanFactory beans, @Nullable String tenant) {

	GuardedCall(MethodInvocation invocation, GuardedMethod guarded, ModelArmorScreening screening) {
		this(invocation, guarded, screening, null, null);
	}

	/**
	 * The same call for a tenant a reactive subscriber's context names.
	 * @param tenant the tenant, or {@code null} to keep this call's
	 * @return the call
	 */
	GuardedCall forTenant(@Nullable String tenant) {
		return (tenant == null) ? this : new GuardedCall(this.invocation, this.guarded, this.screening, this.beans, tenant);
	}

	private GuardTemplates templates() {
		return new GuardTemplates(method(), this.invocation.getArguments(), this.beans, this.tenant);
	}

	Method method() {
		return this.invocation.getMethod();
	}

	/** The prompt to screen, or {@code null} when the method screens none or its prompt is {@code null}. */
	@Nullable String prompt() {
		PromptSource source = this.guarded.prompt();
		return (this.guarded.screenPrompt() && source != null)
				? source.read(method(), this.invocation.getArguments()) : null;
	}

	/**
	 * Screens the prompt.
	 * @param prompt the prompt text
	 * @param replaceable whether the call can go on with a de-identified prompt
	 * @return the decision
	 */
	CompletableFuture<ScreeningDecision> screenPrompt(String prompt, boolean replaceable) {
		return templates().screenAsync(this.screening, this.guarded, ModelArmorGuardInterceptor.request(this.guarded,
				ScreeningRequest.prompt(this.guarded.name(), prompt), replaceable));
	}

	/**
	 * The prompt goes on de-identified: the argument that held it holds the de-identified text.
	 * @param text the de-identified prompt
	 */
	void replacePrompt(String text) {
		PromptSource source = this.guarded.prompt();
		if (source != null) {
			source.replace(this.invocation.getArguments(), text);
		}
	}

	/** Whether the prompt may go on de-identified. */
	boolean promptReplaceable() {
		PromptSource source = this.guarded.prompt();
		return source != null && source.replaceable() && !this.guarded.parallel();
	}

	/** The text of one answer (an element), or {@code null} when it has none or the answer is not screened. */
	@Nullable String answer(@Nullable Object element) {
		ResponseSource source = this.guarded.response();
		return (source != null) ? source.read(method(), this.invocation.getArguments(), element) : null;
	}

	/**
	 * Screens one answer, or one window of a streamed one.
	 * @param text the text
	 * @param prompt the prompt the answer is to, if screened
	 * @return the decision
	 */
	CompletableFuture<ScreeningDecision> screenAnswer(String text, @Nullable String prompt) {
		ResponseSource source = this.guarded.response();
		return templates().screenAsync(this.screening, this.guarded, ModelArmorGuardInterceptor.request(this.guarded,
				ScreeningRequest.response(this.guarded.name(), text, prompt), source != null && source.replaceable()));
	}

	/** The element that de-identified text of the answer stands in. */
	Object replaceAnswer(String text) {
		ResponseSource source = this.guarded.response();
		return (source != null) ? source.replace(text) : text;
	}

	/** Runs the method's body, with the (possibly de-identified) arguments. */
	@Nullable Object proceed() throws Throwable {
		return this.invocation.proceed();
	}

}
