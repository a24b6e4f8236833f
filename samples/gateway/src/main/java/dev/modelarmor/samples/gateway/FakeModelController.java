package dev.modelarmor.samples.gateway;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import reactor.core.publisher.Flux;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * A fake OpenAI-compatible model behind the gateway ({@code /fake-model/v1/chat/completions}): it answers
 * with the user's last message echoed, whole or streamed word by word. Not a model: a stand-in to watch
 * the gateway screen both ways.
 */
@RestController
class FakeModelController {

	private final JsonMapper json = JsonMapper.builder().build();

	@PostMapping("/fake-model/v1/chat/completions")
	ResponseEntity<?> complete(@RequestBody JsonNode request) {
		String prompt = "";
		for (JsonNode message : request.path("messages")) {
			if (message.path("role").asString("").equals("user")) {
				prompt = message.path("content").asString("");
			}
		}
		String answer = "You said: \"" + prompt + "\". Here is a fine answer from the fake model, "
				+ "long enough to stream in a few segments. ".repeat(3);
		if (request.path("stream").asBoolean(false)) {
			return ResponseEntity.ok().contentType(MediaType.TEXT_EVENT_STREAM).body(stream(answer));
		}
		ObjectNode completion = envelope("chat.completion");
		ObjectNode choice = completion.putArray("choices").addObject();
		choice.put("index", 0);
		choice.putObject("message").put("role", "assistant").put("content", answer);
		choice.put("finish_reason", "stop");
		return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(completion.toString());
	}

	private Flux<ServerSentEvent<String>> stream(String answer) {
		List<String> events = new ArrayList<>();
		for (String word : answer.split("(?<= )")) {
			ObjectNode chunk = envelope("chat.completion.chunk");
			ObjectNode choice = chunk.putArray("choices").addObject();
			choice.put("index", 0);
			choice.putObject("delta").put("content", word);
			choice.putNull("finish_reason");
			events.add(chunk.toString());
		}
		ObjectNode last = envelope("chat.completion.chunk");
		ObjectNode choice = last.putArray("choices").addObject();
		choice.put("index", 0);
		choice.putObject("delta");
		choice.put("finish_reason", "stop");
		events.add(last.toString());
		events.add("[DONE]");
		return Flux.fromIterable(events)
			.map((data) -> ServerSentEvent.builder(data).build())
			.delayElements(Duration.ofMillis(20));
	}

	private ObjectNode envelope(String object) {
		ObjectNode node = this.json.createObjectNode();
		node.put("id", "chatcmpl-fake");
		node.put("object", object);
		node.put("created", 0);
		node.put("model", "fake");
		return node;
	}

}
