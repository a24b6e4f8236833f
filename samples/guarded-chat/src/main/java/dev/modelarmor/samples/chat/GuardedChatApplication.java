package dev.modelarmor.samples.chat;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The guarded chat sample. Profile {@code local} (the default) screens against
 * {@link LocalModelArmorStandIn}, a stand-in served by this application itself; profile {@code gcp}
 * screens against the real Model Armor with Application Default Credentials.
 */
@SpringBootApplication
public class GuardedChatApplication {

	/**
	 * Starts the sample.
	 * @param args command-line arguments, e.g. {@code --spring.profiles.active=gcp}
	 */
	public static void main(String[] args) {
		SpringApplication.run(GuardedChatApplication.class, args);
	}

}
