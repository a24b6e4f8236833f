package dev.modelarmor.autoconfigure;

import dev.modelarmor.client.ModelArmorTemplate;
import dev.modelarmor.screening.ModelArmorScreening;
import dev.modelarmor.screening.cache.VerdictCache;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * Puts the {@link VerdictCache} where every screening and every template change passes: the
 * {@link ModelArmorScreening} beans look verdicts up in it, and the {@link ModelArmorTemplate} beans tell it
 * of template changes. Whatever defines those beans (the starter or the application) needs no change; the
 * cache is looked up at the first such bean, so that this post-processor does not create it early.
 */
final class ModelArmorCachePostProcessor implements BeanPostProcessor {

	private final ObjectProvider<VerdictCache> cache;

	ModelArmorCachePostProcessor(ObjectProvider<VerdictCache> cache) {
		this.cache = cache;
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		if (bean instanceof ModelArmorScreening screening) {
			return screening.withCache(this.cache.getObject());
		}
		if (bean instanceof ModelArmorTemplate template) {
			return template.withTemplateChangeListener(this.cache.getObject());
		}
		return bean;
	}

}
