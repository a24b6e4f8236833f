package dev.modelarmor.samples.standin;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Profile;

/**
 * Registers the local Model Armor stand-in in profile {@code local}: {@link LocalModelArmorStandIn} (the
 * sanitize endpoints), {@link StandInControls} ({@code /stand-in/faults}, {@code /stand-in/stats}),
 * {@link FaultQueue}, {@link StandInStats} and {@link StandInProperties} ({@code stand-in.*}). A sample
 * application imports it with {@code @Import(StandInConfiguration.class)} and points
 * {@code modelarmor.endpoint} at itself in that profile. In any other profile nothing of it exists.
 */
@Configuration(proxyBeanMethods = false)
@Profile("local")
@EnableConfigurationProperties(StandInProperties.class)
@Import({ FaultQueue.class, StandInStats.class, LocalModelArmorStandIn.class, StandInControls.class })
public class StandInConfiguration {

}
