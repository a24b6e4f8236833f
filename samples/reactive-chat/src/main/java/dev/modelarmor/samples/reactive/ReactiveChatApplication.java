package dev.modelarmor.samples.reactive;

import dev.modelarmor.samples.standin.StandInConfiguration;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Import;

/**
 * The reactive chat sample. Profile {@code local} (the default) screens against a local Model Armor
 * stand-in (from the shared {@link StandInConfiguration}); profile {@code gcp} screens against the real
 * Model Armor with Application Default Credentials.
 */
@SpringBootApplication
@Import(StandInConfiguration.class)
public class ReactiveChatApplication {

	/**
	 * Starts the sample.
	 * @param args command-line arguments, e.g. {@code --spring.profiles.active=gcp}
	 */
	public static void main(String[] args) {
		SpringApplication.run(ReactiveChatApplication.class, args);
	}

}
