package dev.modelarmor.gateway;

import dev.modelarmor.autoconfigure.ModelArmorGuardAutoConfiguration;
import dev.modelarmor.autoconfigure.internal.NamedTemplates;
import dev.modelarmor.gateway.internal.RouteTemplates;
import dev.modelarmor.screening.ModelArmorScreening;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.cloud.gateway.config.GatewayProperties;
import org.springframework.cloud.gateway.filter.factory.GatewayFilterFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.util.unit.DataSize;

/**
 * Auto-configuration of the {@code ModelArmor} gateway filter ({@link ModelArmorGatewayFilterFactory}) in a
 * Spring Cloud Gateway Server WebFlux application, over the starter's {@link ModelArmorScreening}. Off with
 * {@code modelarmor.gateway.enabled=false}; an invalid {@code modelarmor.gateway.*} value fails startup,
 * naming it. The templates that the filters of routes declared in properties name are among the templates in use:
 * read at start-up by the template check and values of the meters' {@code template} tag.
 */
@AutoConfiguration(after = ModelArmorGuardAutoConfiguration.class)
@ConditionalOnClass({ GatewayFilterFactory.class, ModelArmorScreening.class })
@ConditionalOnBooleanProperty(name = "modelarmor.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty(name = "modelarmor.gateway.enabled", matchIfMissing = true)
@EnableConfigurationProperties(ModelArmorGatewayProperties.class)
public final class ModelArmorGatewayAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	ModelArmorGatewayFilterFactory modelArmorGatewayFilterFactory(ObjectProvider<ModelArmorScreening> screening,
			ModelArmorGatewayProperties properties, ObjectProvider<MeterRegistry> meters) {
		check(properties);
		return new ModelArmorGatewayFilterFactory(screening::getObject, properties, meters.getIfUnique());
	}

	/** Among the templates in use: read by the start-up template check, values of the meters' template tag. */
	@Bean
	NamedTemplates modelArmorGatewayTemplates(ObjectProvider<GatewayProperties> gateway) {
		GatewayProperties properties = gateway.getIfUnique();
		return (properties != null) ? RouteTemplates.of(ModelArmorGatewayFilterFactory.NAME, properties.getRoutes())
				: NamedTemplates.NONE;
	}

	private static void check(ModelArmorGatewayProperties properties) {
		positive("modelarmor.gateway.max-request-size", properties.getMaxRequestSize());
		positive("modelarmor.gateway.max-response-size", properties.getMaxResponseSize());
		positive("modelarmor.gateway.max-event-size", properties.getMaxEventSize());
		ModelArmorGatewayProperties.Stream stream = properties.getStream();
		positive("modelarmor.gateway.stream.segment", stream.getSegment());
		positive("modelarmor.gateway.stream.first-segment", stream.getFirstSegment());
		if (stream.getFirstSegment().toBytes() > stream.getSegment().toBytes()) {
			throw new InvalidConfigurationPropertyValueException("modelarmor.gateway.stream.first-segment",
					stream.getFirstSegment(), "It must not be larger than modelarmor.gateway.stream.segment");
		}
		if (stream.getOverlap().toBytes() < 0 || stream.getOverlap().toBytes() > stream.getSegment().toBytes() / 2) {
			throw new InvalidConfigurationPropertyValueException("modelarmor.gateway.stream.overlap",
					stream.getOverlap(), "It must be from 0 to half of modelarmor.gateway.stream.segment");
		}
		if (properties.getRetryAfter().isNegative()) {
			throw new InvalidConfigurationPropertyValueException("modelarmor.gateway.retry-after",
					properties.getRetryAfter(), "It must not be negative");
		}
	}

	private static void positive(String name, DataSize size) {
		if (size.toBytes() <= 0 || size.toBytes() > Integer.MAX_VALUE - 8) {
			throw new InvalidConfigurationPropertyValueException(name, size, "It must be from 1 byte to 2 GB");
		}
	}

}
