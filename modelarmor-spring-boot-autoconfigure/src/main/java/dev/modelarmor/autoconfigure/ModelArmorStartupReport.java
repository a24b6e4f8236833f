package dev.modelarmor.autoconfigure;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import dev.modelarmor.auth.ModelArmorCredentialsProvider;
import dev.modelarmor.client.ModelArmorConfigurationException;
import dev.modelarmor.guard.ModelArmorGuardPostProcessor;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanInitializationException;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/**
 * One startup report with every problem at once. The first part of the configuration that cannot go on
 * (the settings, then the authorization) asks this report for the problems of the parts after it, so that
 * its failure lists them too; the guarded methods that cannot be screened, found while their beans are
 * post-processed, fail the start once every singleton is created, when nothing else did.
 */
final class ModelArmorStartupReport implements SmartInitializingSingleton {

	static final String AUTHORIZATION_BEAN = "modelArmorAuthorization";

	private static final Log logger = LogFactory.getLog(ModelArmorStartupReport.class);

	private static final String QUOTA_PROPERTY = "modelarmor.quota.enabled";

	private static final String REDIS_FACTORY = "org.springframework.data.redis.connection.RedisConnectionFactory";

	private static final String LETTUCE_FACTORY = "org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory";

	private static final String BUCKET4J_LETTUCE = "io.github.bucket4j.redis.lettuce.Bucket4jLettuce";

	private static final String TOOLS_PROPERTY = "modelarmor.spring-ai.tools.enabled";

	private static final String TOOL_CALLING_MANAGER = "org.springframework.ai.model.tool.ToolCallingManager";

	private static final String SPRING_AI_MODULE = "dev.modelarmor.ai.advisor.ModelArmorAdvisor";

	private static final List<String> SPRING_AI_SWITCHES = List.of("modelarmor.spring-ai.advisor.enabled",
			"modelarmor.spring-ai.documents.enabled", TOOLS_PROPERTY);

	private final ConfigurableListableBeanFactory beanFactory;

	private final Environment environment;

	ModelArmorStartupReport(ConfigurableListableBeanFactory beanFactory, Environment environment) {
		this.beanFactory = beanFactory;
		this.environment = environment;
	}

	/**
	 * What the client's authorization lacks (credentials, project id, and then the default template), for a
	 * report that the settings fail first; nothing when the application has its own client.
	 * @param properties the client properties
	 * @return the problems, in the order of the report
	 */
	List<ModelArmorConfigurationException> authorizationProblems(ModelArmorProperties properties) {
		if (!this.beanFactory.containsBeanDefinition(AUTHORIZATION_BEAN)) {
			return List.of();
		}
		ModelArmorCredentialsProvider provider;
		try {
			provider = this.beanFactory.getBean(ModelArmorCredentialsProvider.class);
		}
		catch (BeansException ex) {
			// An application's provider that needs the client cannot be asked before the client exists.
			return List.of();
		}
		return ModelArmorAuthorization.problems(properties, provider, this.environment,
				new SpringCloudGcp(this.beanFactory, this.beanFactory.getBeanClassLoader())::projectId);
	}

	/**
	 * The guarded methods that cannot be screened, of every bean the context defines, created or not.
	 * @return the problems, in the order of the bean definitions
	 */
	List<ModelArmorConfigurationException> guardedMethodProblems() {
		ModelArmorGuardPostProcessor guard = this.beanFactory.getBeanProvider(ModelArmorGuardPostProcessor.class)
			.getIfAvailable();
		if (guard == null) {
			return List.of();
		}
		List<ModelArmorConfigurationException> problems = new ArrayList<>();
		for (String name : this.beanFactory.getBeanDefinitionNames()) {
			Class<?> type = this.beanFactory.getType(name, false);
			if (type != null) {
				problems.addAll(guard.problems(ClassUtils.getUserClass(type)));
			}
		}
		return problems;
	}

	/**
	 * Tool screening that would screen nothing: on, but without a {@code ToolCallingManager} bean to wrap
	 * (Spring AI's tool calling auto-configuration is missing), every tool would run unscreened.
	 * @return the problem, or none
	 */
	List<ModelArmorConfigurationException> toolProblems() {
		if (!this.environment.getProperty(TOOLS_PROPERTY, Boolean.class, false)) {
			return List.of();
		}
		ClassLoader classLoader = this.beanFactory.getBeanClassLoader();
		if (!ClassUtils.isPresent(SPRING_AI_MODULE, classLoader)) {
			return List.of();
		}
		boolean managed = ClassUtils.isPresent(TOOL_CALLING_MANAGER, classLoader) && this.beanFactory
			.getBeanNamesForType(ClassUtils.resolveClassName(TOOL_CALLING_MANAGER, classLoader), true, false).length > 0;
		if (managed) {
			return List.of();
		}
		return List.of(new ModelArmorConfigurationException(TOOLS_PROPERTY,
				"is true, but there is no ToolCallingManager bean whose tool calls could be screened",
				"Add org.springframework.ai:spring-ai-autoconfigure-model-tool (Spring AI's tool calling), or define "
						+ "a ToolCallingManager bean, or set " + TOOLS_PROPERTY + "=false"));
	}

	/**
	 * A Spring AI integration switched on without the module that holds it: nothing would be screened.
	 * @return a problem for each integration switched on, or none when the module is on the class path
	 */
	List<ModelArmorConfigurationException> springAiModuleProblems() {
		if (ClassUtils.isPresent(SPRING_AI_MODULE, this.beanFactory.getBeanClassLoader())) {
			return List.of();
		}
		return SPRING_AI_SWITCHES.stream()
			.filter((property) -> this.environment.getProperty(property, Boolean.class, false))
			.map((property) -> new ModelArmorConfigurationException(property,
					"is true, but the Spring AI integration is not on the class path, so nothing would be screened",
					"Add dev.modelarmor:modelarmor-spring-ai beside the starter, or set " + property + "=false"))
			.toList();
	}

	/**
	 * A quota that stays in each instance although the application has Redis: the operator most likely meant
	 * it to be shared, and a fleet of n instances would then reach Model Armor n times as often as the quota.
	 * Not a failure (a single instance, or a quota meant per instance, is fine), but said at start, naming
	 * what is missing.
	 * @return the notice, or none when the quota is off, shared, or there is no Redis
	 */
	Optional<String> quotaNotice() {
		if (!this.environment.getProperty(QUOTA_PROPERTY, Boolean.class, false)) {
			return Optional.empty();
		}
		ClassLoader classLoader = this.beanFactory.getBeanClassLoader();
		if (!ClassUtils.isPresent(REDIS_FACTORY, classLoader)) {
			return Optional.empty();
		}
		Class<?> redis = ClassUtils.resolveClassName(REDIS_FACTORY, classLoader);
		if (this.beanFactory.getBeanNamesForType(redis, true, false).length == 0) {
			return Optional.empty();
		}
		String kept = QUOTA_PROPERTY + "=true and the application has a RedisConnectionFactory, but the quota is "
				+ "kept in each instance, not shared through Redis: ";
		if (!ClassUtils.isPresent(BUCKET4J_LETTUCE, classLoader) || !ClassUtils.isPresent(LETTUCE_FACTORY, classLoader)) {
			return Optional.of(kept + "Bucket4j's Lettuce module is not on the class path. Add "
					+ "com.bucket4j:bucket4j_jdk17-lettuce (the version of the bucket4j_jdk17-core the starter "
					+ "brings) to share it");
		}
		// every singleton exists by now: the one the quota limiter was given, if it was unique
		Object factory = this.beanFactory.getBeanProvider(redis).getIfUnique();
		if (!ClassUtils.resolveClassName(LETTUCE_FACTORY, classLoader).isInstance(factory)) {
			return Optional.of(kept + "it is shared through the application's one RedisConnectionFactory, and only "
					+ "a Lettuce one (spring-boot-starter-data-redis's default): this application has "
					+ ((factory != null) ? "a " + factory.getClass().getSimpleName() : "more than one"));
		}
		return Optional.empty();
	}

	@Override
	public void afterSingletonsInstantiated() {
		quotaNotice().ifPresent(logger::warn);
		ModelArmorGuardPostProcessor guard = this.beanFactory.getBeanProvider(ModelArmorGuardPostProcessor.class)
			.getIfAvailable();
		List<ModelArmorConfigurationException> problems = new ArrayList<>(springAiModuleProblems());
		problems.addAll(toolProblems());
		if (guard != null) {
			problems.addAll(0, guard.problems());
		}
		try {
			ModelArmorConfigurationProblems.throwIfAny(problems);
		}
		catch (ModelArmorConfigurationException ex) {
			throw new BeanInitializationException("Model Armor is not configured correctly", ex);
		}
	}

}
