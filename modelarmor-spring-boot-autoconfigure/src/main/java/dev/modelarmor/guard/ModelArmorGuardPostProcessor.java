package dev.modelarmor.guard;

import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import dev.modelarmor.client.WindowedScreening;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.Pointcut;
import org.springframework.aop.framework.AopInfrastructureBean;
import org.springframework.aop.framework.autoproxy.AbstractBeanFactoryAwareAdvisingPostProcessor;
import org.springframework.aop.support.AopUtils;
import org.springframework.aop.support.ComposablePointcut;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.aop.support.annotation.AnnotationMatchingPointcut;
import org.springframework.beans.factory.DisposableBean;

/**
 * Proxies the beans that have {@link ModelArmorGuarded} methods (or the annotation on their class or an
 * interface) so that each guarded call is screened. While doing so it resolves every guarded method of
 * the bean, so that one in which no text can be found fails startup, not a request.
 */
public class ModelArmorGuardPostProcessor extends AbstractBeanFactoryAwareAdvisingPostProcessor
		implements DisposableBean {

	private final GuardedMethods methods;

	private final ModelArmorGuardInterceptor interceptor;

	/**
	 * Creates the post-processor.
	 * @param screening screens text of any length (in windows when it is longer than one) with the default
	 * template, looked up at the first guarded call
	 * @param defaultTemplate the configured default template id, or a supplier of {@code null}
	 * @param failOpen whether screening that cannot complete lets the call through
	 * @param observer told of every screening, looked up at the first guarded call
	 */
	public ModelArmorGuardPostProcessor(Supplier<WindowedScreening> screening,
			Supplier<@Nullable String> defaultTemplate, BooleanSupplier failOpen, Supplier<ScreeningObserver> observer) {
		this.methods = new GuardedMethods(defaultTemplate);
		Pointcut pointcut = new ComposablePointcut(new AnnotationMatchingPointcut(ModelArmorGuarded.class, true))
			.union(new AnnotationMatchingPointcut(null, ModelArmorGuarded.class, true));
		this.interceptor = new ModelArmorGuardInterceptor(this.methods, screening, failOpen, observer);
		this.advisor = new DefaultPointcutAdvisor(pointcut, this.interceptor);
		setBeforeExistingAdvisors(true);
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		if (!(bean instanceof AopInfrastructureBean)) {
			Class<?> targetClass = AopUtils.getTargetClass(bean);
			if (isEligible(targetClass)) {
				this.methods.validate(targetClass);
			}
		}
		return super.postProcessAfterInitialization(bean, beanName);
	}

	/**
	 * Shuts down the threads that screen the prompts of side-effect-free methods, when any were started.
	 */
	@Override
	public void destroy() {
		this.interceptor.close();
	}

}
