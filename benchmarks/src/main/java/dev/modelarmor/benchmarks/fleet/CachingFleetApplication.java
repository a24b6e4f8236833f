package dev.modelarmor.benchmarks.fleet;

import org.springframework.cache.annotation.EnableCaching;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/** An instance of the fleet with Spring's caching on, for the verdict cache on Boot's Redis cache. */
@Configuration(proxyBeanMethods = false)
@EnableCaching
@Import(FleetApplication.class)
class CachingFleetApplication {

}
