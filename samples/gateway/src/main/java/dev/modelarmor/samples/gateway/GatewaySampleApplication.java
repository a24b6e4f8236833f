package dev.modelarmor.samples.gateway;

import dev.modelarmor.samples.standin.StandInConfiguration;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Import;

/**
 * The gateway sample. Profile {@code local} (the default) screens against a local Model Armor stand-in;
 * profile {@code gcp} against the real Model Armor with Application Default Credentials.
 */
@SpringBootApplication
@Import(StandInConfiguration.class)
public class GatewaySampleApplication {

	/**
	 * Starts the sample.
	 * @param args command-line arguments, e.g. {@code --spring.profiles.active=gcp}
	 */
	public static void main(String[] args) {
		SpringApplication.run(GatewaySampleApplication.class, args);
	}

}
