package dev.modelarmor.samples.springai;

import dev.modelarmor.samples.standin.StandInConfiguration;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Import;

/**
 * The Spring AI chat sample. Profile {@code local} (the default) answers with
 * {@link DeterministicChatModel} and screens against a local Model Armor stand-in (from the shared
 * {@link StandInConfiguration}); profile {@code gcp} uses Gemini on
 * Vertex AI and the real Model Armor, with Application Default Credentials.
 */
@SpringBootApplication
@Import(StandInConfiguration.class)
public class SpringAiChatApplication {

	/**
	 * Starts the sample.
	 * @param args command-line arguments, e.g. {@code --spring.profiles.active=gcp}
	 */
	public static void main(String[] args) {
		SpringApplication.run(SpringAiChatApplication.class, args);
	}

}
