package dev.modelarmor.guard;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import dev.modelarmor.client.TemplateReference;
import dev.modelarmor.screening.ModelArmorScreening;
import dev.modelarmor.screening.ModelArmorUnknownTenantException;
import dev.modelarmor.screening.ScreeningDecision;
import dev.modelarmor.screening.ScreeningRequest;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.context.expression.BeanFactoryResolver;
import org.springframework.context.expression.MethodBasedEvaluationContext;
import org.springframework.expression.Expression;

/**
 * Screens one side of a guarded call with its template: the one the annotation names (its SpEL evaluated
 * for each call, over the arguments and the application's beans), else the one the
 * {@link dev.modelarmor.screening.ModelArmorTemplateResolver} chooses for the request's tenant, else the
 * default. A tenant refused, by the expression or by the resolver, is a refusal as the screening makes it.
 *
 * @param method the guarded method
 * @param arguments its arguments
 * @param beans resolves {@code @bean} references of the template's SpEL, or {@code null}
 * @param tenant the request's tenant, or {@code null}
 */
record GuardTemplates(Method method, @Nullable Object[] arguments, @Nullable BeanFactory beans,
		@Nullable String tenant) {

	ScreeningDecision screen(ModelArmorScreening screening, GuardedMethod guarded, ScreeningRequest request) {
		ScreeningRequest chosen;
		try {
			chosen = choose(guarded, request);
		}
		catch (ModelArmorUnknownTenantException ex) {
			return screening.unknownTenant(request);
		}
		return screening.screen(chosen, this.tenant, Map.of());
	}

	CompletableFuture<ScreeningDecision> screenAsync(ModelArmorScreening screening, GuardedMethod guarded,
			ScreeningRequest request) {
		ScreeningRequest chosen;
		try {
			chosen = choose(guarded, request);
		}
		catch (ModelArmorUnknownTenantException ex) {
			return CompletableFuture.completedFuture(screening.unknownTenant(request));
		}
		return screening.screenAsync(chosen, this.tenant, Map.of());
	}

	/** The request with the template its annotation's SpEL gives for this call, if it has one. */
	private ScreeningRequest choose(GuardedMethod guarded, ScreeningRequest request) {
		Expression expression = guarded.templateExpression();
		if (expression == null) {
			return request;
		}
		MethodBasedEvaluationContext context = new MethodBasedEvaluationContext(null, this.method, this.arguments,
				GuardExpressions.PARAMETER_NAMES);
		if (this.beans != null) {
			context.setBeanResolver(new BeanFactoryResolver(this.beans));
		}
		Object value = expression.getValue(context);
		if (value instanceof TemplateReference reference) {
			return request.withTemplate(reference.name());
		}
		if (value == null || (value instanceof CharSequence text && text.toString().isBlank())) {
			return request;
		}
		if (value instanceof CharSequence text) {
			return request.withTemplate(text.toString().strip());
		}
		throw new IllegalStateException("The template of @ModelArmorGuarded " + guarded.name() + " gave a "
				+ value.getClass().getName() + ", not a template id or a TemplateReference");
	}

}
