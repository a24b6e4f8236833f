package dev.modelarmor.samples.reactive;

import java.time.Duration;
import java.util.Arrays;

import dev.modelarmor.guard.ModelArmorGuarded;
import dev.modelarmor.samples.standin.DeterministicResponder;
import reactor.core.publisher.Flux;

import org.springframework.stereotype.Service;

/**
 * The one place that talks to the "model", which streams its reply word by word. {@link ModelArmorGuarded}
 * screens the message before the model's stream is subscribed to, and the reply in segments as it streams:
 * no word is sent before the segment that holds it passed, and a match ends the stream with
 * {@link dev.modelarmor.screening.ModelArmorViolationException}.
 */
@Service
public class StreamingChatService {

	private final DeterministicResponder model = new DeterministicResponder();

	/**
	 * Streams the reply to a message.
	 * @param message the user's message
	 * @return the reply, word by word
	 */
	@ModelArmorGuarded
	public Flux<String> reply(String message) {
		String[] words = this.model.reply(message).split("(?<= )");
		return Flux.fromIterable(Arrays.asList(words)).delayElements(Duration.ofMillis(20));
	}

}
