package dev.modelarmor.gateway.internal;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import dev.modelarmor.screening.Phase;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Anthropic Messages ({@code POST .../v1/messages}; {@code count_tokens} passes untouched). Untrusted: the
 * text of every message (the user's and the history's), images and documents, tool results, the system
 * prompt when configured. Answers: the text blocks and the tool uses' inputs. Streams: named events, text in
 * {@code text_delta}s, a tool use's input in {@code input_json_delta}s up to its {@code content_block_stop}.
 */
final class AnthropicMapper implements ApiMapper {

	@Override
	public boolean screens(String path) {
		return Paths.normalized(path).endsWith("/messages");
	}

	@Override
	public Prompt prompt(ObjectNode request, boolean screenSystem) {
		if (!(request.get("messages") instanceof ArrayNode)) {
			throw new BadInput("messages is not an array");
		}
		List<PromptPart> parts = new ArrayList<>();
		if (screenSystem) {
			List<TextSlot> system = new ArrayList<>();
			TextSlot.stringOrParts(request, "system", "system", system, (block) -> {
				if (Json.stringOrNull(block, "text", "a system block's text") != null) {
					system.add(new TextSlot(block, "text"));
				}
			});
			if (!system.isEmpty()) {
				parts.add(PromptPart.Text.of(Phase.PROMPT, system));
			}
		}
		String userText = null;
		for (ObjectNode message : Json.objects(request, "messages", "messages")) {
			List<TextSlot> slots = new ArrayList<>();
			TextSlot.stringOrParts(message, "content", "a message's content", slots,
					(block) -> block(block, slots, parts));
			if (!slots.isEmpty()) {
				PromptPart.Text text = PromptPart.Text.of(Phase.PROMPT, slots);
				parts.add(text);
				if ("user".equals(Json.stringOrNull(message, "role", "a message's role"))) {
					userText = text.text();
				}
			}
		}
		return new Prompt(parts, userText);
	}

	private static void block(ObjectNode block, List<TextSlot> slots, List<PromptPart> parts) {
		String type = Json.stringOrNull(block, "type", "a content block's type");
		if (type == null) {
			throw new BadInput("a content block has no type");
		}
		switch (type) {
			case "text" -> {
				if (Json.stringOrNull(block, "text", "a text block's text") != null) {
					slots.add(new TextSlot(block, "text"));
				}
			}
			case "image", "document" -> source(block, slots, parts);
			case "tool_result" -> {
				List<TextSlot> result = new ArrayList<>();
				TextSlot.stringOrParts(block, "content", "a tool result's content", result,
						(inner) -> block(inner, result, parts));
				if (!result.isEmpty()) {
					parts.add(PromptPart.Text.of(Phase.TOOL_RESULT, result));
				}
			}
			// the history's own tool uses and thinking: the model's output, signed or re-run by the client
			case "tool_use", "thinking", "redacted_thinking", "server_tool_use" -> {
			}
			default -> parts.add(new PromptPart.Media(InlineMedia.unknown(type)));
		}
	}

	private static void source(ObjectNode block, List<TextSlot> slots, List<PromptPart> parts) {
		ObjectNode source = Json.objectOrNull(block, "source", "a block's source");
		String kind = (source != null) ? Json.stringOrNull(source, "type", "a source's type") : null;
		if (source != null && "base64".equals(kind)) {
			parts.add(new PromptPart.Media(InlineMedia.base64(Json.stringOrNull(source, "media_type",
					"a source's media_type"), Json.stringOrNull(source, "data", "a source's data"))));
		}
		else if (source != null && "text".equals(kind) && Json.stringOrNull(source, "data", "a source's data") != null) {
			slots.add(new TextSlot(source, "data"));
		}
		else if (source != null && "content".equals(kind)) {
			for (ObjectNode inner : Json.objects(source, "content", "a source's content")) {
				block(inner, slots, parts);
			}
		}
		else {
			parts.add(new PromptPart.Media(InlineMedia.reference(null)));
		}
	}

	@Override
	public List<AnswerPart> answer(ObjectNode answer) {
		List<TextSlot> slots = new ArrayList<>();
		StringBuilder calls = new StringBuilder();
		for (ObjectNode block : Json.objects(answer, "content", "content")) {
			String type = Json.stringOrNull(block, "type", "a content block's type");
			if ("text".equals(type) && Json.stringOrNull(block, "text", "a text block's text") != null) {
				slots.add(new TextSlot(block, "text"));
			}
			else if ("tool_use".equals(type)) {
				JsonNode input = block.get("input");
				calls.append(block.path("name").asString(""))
					.append('(')
					.append((input != null) ? Json.string(input) : "")
					.append(")\n");
			}
		}
		return List.of(new AnswerPart(slots, calls.toString()));
	}

	@Override
	public ObjectNode refusedAnswer(ObjectNode answer) {
		ObjectNode refused = answer.deepCopy();
		refused.putArray("content");
		refused.put("stop_reason", "refusal");
		refused.putNull("stop_sequence");
		return refused;
	}

	@Override
	public ObjectNode error(Failure failure, String message) {
		ObjectNode body = Json.newObject();
		body.put("type", "error");
		ObjectNode error = body.putObject("error");
		error.put("type", switch (failure) {
			case REQUEST_TOO_LARGE -> "request_too_large";
			case BAD_ANSWER, NOT_SCREENED -> "api_error";
			default -> "invalid_request_error";
		});
		error.put("message", message);
		return body;
	}

	@Override
	public StreamEvent event(SseEvent event) {
		String data = event.data();
		if (data == null) {
			return StreamEvent.opaque(event, false);
		}
		ObjectNode json = Json.object(data, "an event of the streamed answer");
		String type = json.path("type").asString("");
		String key = json.path("index").asString("0");
		switch (type) {
			case "content_block_start" -> {
				ObjectNode block = Json.objectOrNull(json, "content_block", "a content block");
				String kind = (block != null) ? block.path("type").asString("") : "";
				if (block != null && kind.equals("text") && block.path("text").isString()) {
					return new StreamEvent(event, json, List.of(new StreamEvent.Text(0, new TextSlot(block, "text"))),
							List.of(), false);
				}
				if (block != null && kind.equals("tool_use")) {
					JsonNode input = block.get("input");
					String start = (input instanceof ObjectNode object && !object.isEmpty()) ? Json.string(input) : "";
					return new StreamEvent(event, json, List.of(), List.of(new StreamEvent.ToolFragment(key,
							block.path("name").asString(""), start)), false);
				}
				return StreamEvent.opaque(event, false);
			}
			case "content_block_delta" -> {
				ObjectNode delta = Json.objectOrNull(json, "delta", "a content block delta");
				String kind = (delta != null) ? delta.path("type").asString("") : "";
				if (delta != null && kind.equals("text_delta")
						&& Json.stringOrNull(delta, "text", "a text delta's text") != null) {
					return new StreamEvent(event, json, List.of(new StreamEvent.Text(0, new TextSlot(delta, "text"))),
							List.of(), false);
				}
				if (delta != null && kind.equals("input_json_delta")) {
					String partial = Json.stringOrNull(delta, "partial_json", "an input delta's partial_json");
					return new StreamEvent(event, json, List.of(), List.of(new StreamEvent.ToolFragment(key, null,
							(partial != null) ? partial : "")), false);
				}
				return new StreamEvent(event, json, List.of(), List.of(), false);
			}
			case "content_block_stop", "message_stop" -> {
				return new StreamEvent(event, json, List.of(), List.of(), true);
			}
			default -> {
				return new StreamEvent(event, json, List.of(), List.of(), false);
			}
		}
	}

	@Override
	public StreamEnding ending() {
		return new Ending();
	}

	/**
	 * Ends a refused stream as Anthropic ends a refused answer: the open blocks stopped, then
	 * {@code stop_reason: "refusal"}; before the message started, an {@code error} event.
	 */
	private final class Ending implements StreamEnding {

		private boolean started;

		private final Set<String> open = new LinkedHashSet<>();

		@Override
		public void released(StreamEvent event) {
			ObjectNode json = event.json();
			if (json == null) {
				return;
			}
			switch (json.path("type").asString("")) {
				case "message_start" -> this.started = true;
				case "content_block_start" -> this.open.add(json.path("index").asString("0"));
				case "content_block_stop" -> this.open.remove(json.path("index").asString("0"));
				default -> {
				}
			}
		}

		@Override
		public List<String> refused() {
			if (!this.started) {
				return failed(Failure.PROMPT_REFUSED, "Refused by Model Armor: the answer matched its filters");
			}
			List<String> events = new ArrayList<>();
			for (String index : this.open) {
				ObjectNode stop = Json.newObject();
				stop.put("type", "content_block_stop");
				stop.put("index", Integer.parseInt(index));
				events.add(SseEvent.write("content_block_stop", Json.string(stop)));
			}
			ObjectNode delta = Json.newObject();
			delta.put("type", "message_delta");
			ObjectNode inner = delta.putObject("delta");
			inner.put("stop_reason", "refusal");
			inner.putNull("stop_sequence");
			delta.putObject("usage").put("output_tokens", 0);
			events.add(SseEvent.write("message_delta", Json.string(delta)));
			ObjectNode stop = Json.newObject();
			stop.put("type", "message_stop");
			events.add(SseEvent.write("message_stop", Json.string(stop)));
			return events;
		}

		@Override
		public List<String> failed(Failure failure, String message) {
			return List.of(SseEvent.write("error", Json.string(error(failure, message))));
		}

	}

}
