package dev.modelarmor.guard;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

import dev.modelarmor.client.ModelArmorConfigurationException;
import dev.modelarmor.screening.ModelArmorScreening;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.Pointcut;
import org.springframework.aop.framework.AopInfrastructureBean;
import org.springframework.aop.framework.autoproxy.AbstractBeanFactoryAwareAdvisingPostProcessor;
import org.springframework.aop.support.AopUtils;
import org.springframework.aop.support.ComposablePointcut;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.aop.support.annotation.AnnotationMatchingPointcut;
import org.springframework.beans.factory.BeanFactory;

/**
 * Proxies the beans that have {@link ModelArmorGuarded} methods (or the annotation on their class or an
 * interface) so that each guarded call is screened. While doing so it resolves every guarded method of
 * the bean, so that one in which no text can be found fails startup, not a request: the problems are kept
 * for the startup report ({@link #problems()}), which lists them with every other one.
 */
public class ModelArmorGuardPostProcessor extends AbstractBeanFactoryAwareAdvisingPostProcessor {

	private final GuardedMethods methods;

	private final ModelArmorGuardInterceptor interceptor;

	private final List<ModelArmorConfigurationException> problems = new CopyOnWriteArrayList<>();

	/**
	 * Creates the post-processor.
	 * @param screening screens and decides, looked up at the first guarded call
	 * @param defaultTemplate the configured default template id, or a supplier of {@code null}
	 */
	public ModelArmorGuardPostProcessor(Supplier<ModelArmorScreening> screening,
			Supplier<@Nullable String> defaultTemplate) {
		this.methods = new GuardedMethods(defaultTemplate);
		Pointcut pointcut = new ComposablePointcut(new AnnotationMatchingPointcut(ModelArmorGuarded.class, true))
			.union(new AnnotationMatchingPointcut(null, ModelArmorGuarded.class, true));
		this.interceptor = new ModelArmorGuardInterceptor(this.methods, screening);
		this.advisor = new DefaultPointcutAdvisor(pointcut, this.interceptor);
		setBeforeExistingAdvisors(true);
	}

	@Override
	public void setBeanFactory(BeanFactory beanFactory) {
		super.setBeanFactory(beanFactory);
		this.interceptor.setBeanFactory(beanFactory);
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		if (!(bean instanceof AopInfrastructureBean)) {
			Class<?> targetClass = AopUtils.getTargetClass(bean);
			if (isEligible(targetClass)) {
				this.problems.addAll(this.methods.validate(targetClass));
			}
		}
		return super.postProcessAfterInitialization(bean, beanName);
	}

	/**
	 * The guarded methods of the beans post-processed so far that cannot be screened, for the startup report
	 * (each call of one fails).
	 * @return the problems, in the order found
	 */
	public List<ModelArmorConfigurationException> problems() {
		return List.copyOf(this.problems);
	}

	/**
	 * The guarded methods of a class that cannot be screened, found now.
	 * @param targetClass the class of a bean
	 * @return the problems, empty when the class has none or no guarded method
	 */
	public List<ModelArmorConfigurationException> problems(Class<?> targetClass) {
		return isEligible(targetClass) ? this.methods.validate(targetClass) : List.of();
	}

	/**
	 * The templates that the annotations of the beans post-processed so far name.
	 * @return the first {@code ClassName#method} naming each, by template id
	 */
	public Map<String, String> templates() {
		return this.methods.templates();
	}

}
