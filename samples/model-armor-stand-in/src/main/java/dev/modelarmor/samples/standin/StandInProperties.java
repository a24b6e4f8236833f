package dev.modelarmor.samples.standin;

import java.util.List;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of the local Model Armor stand-in (profile {@code local}), prefix {@code stand-in}.
 * @param faults HTTP statuses answered, in order, before any normal answer, e.g. {@code 503,503,429}
 */
@ConfigurationProperties("stand-in")
public record StandInProperties(@DefaultValue List<Integer> faults) {

}
