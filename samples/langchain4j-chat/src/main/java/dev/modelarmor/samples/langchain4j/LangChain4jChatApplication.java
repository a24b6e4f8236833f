package dev.modelarmor.samples.langchain4j;

import dev.modelarmor.samples.standin.StandInConfiguration;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Import;

/**
 * The LangChain4j chat sample. Profile {@code local} (the default) answers with {@link DeterministicModel} and
 * screens against a local Model Armor stand-in (from the shared {@link StandInConfiguration}).
 */
@SpringBootApplication
@Import(StandInConfiguration.class)
public class LangChain4jChatApplication {

	/**
	 * Starts the sample.
	 * @param args command-line arguments
	 */
	public static void main(String[] args) {
		SpringApplication.run(LangChain4jChatApplication.class, args);
	}

}
