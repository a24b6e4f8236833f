package dev.modelarmor.gateway.internal;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import dev.modelarmor.screening.Phase;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * OpenAI Chat Completions ({@code POST .../chat/completions}), as OpenAI, Azure OpenAI, vLLM and Ollama
 * serve it. Untrusted: every message's text but the system's and the developer's (unless configured), the
 * assistant's turns included (the client writes the history it sends), tool results, and media. Answers:
 * each choice's content and refusal, and its tool calls. Streams: {@code chat.completion.chunk} events,
 * tool-call arguments in fragments keyed by index, ending with {@code data: [DONE]}.
 */
final class OpenAiMapper implements ApiMapper {

	/** The most choices an answer may have: more is bad input, not a list to grow. */
	static final int MAX_GENERATIONS = 128;

	private static final String DONE = "[DONE]";

	@Override
	public boolean screens(String path) {
		return Paths.normalized(path).endsWith("/chat/completions");
	}

	@Override
	public Prompt prompt(ObjectNode request, boolean screenSystem) {
		if (!(request.get("messages") instanceof ArrayNode)) {
			throw new BadInput("messages is not an array");
		}
		List<PromptPart> parts = new ArrayList<>();
		String userText = null;
		for (ObjectNode message : Json.objects(request, "messages", "messages")) {
			String role = Json.stringOrNull(message, "role", "a message's role");
			role = (role != null) ? role.toLowerCase(Locale.ROOT) : "user";
			if (!screenSystem && (role.equals("system") || role.equals("developer"))) {
				continue;
			}
			Phase phase = (role.equals("tool") || role.equals("function")) ? Phase.TOOL_RESULT : Phase.PROMPT;
			List<TextSlot> slots = new ArrayList<>();
			TextSlot.stringOrParts(message, "content", "a message's content", slots,
					(part) -> contentPart(part, slots, parts));
			if (message.path("refusal").isString()) {
				slots.add(new TextSlot(message, "refusal"));
			}
			if (!slots.isEmpty()) {
				PromptPart.Text text = PromptPart.Text.of(phase, slots);
				parts.add(text);
				if (role.equals("user")) {
					userText = text.text();
				}
			}
		}
		return new Prompt(parts, userText);
	}

	private static void contentPart(ObjectNode part, List<TextSlot> slots, List<PromptPart> parts) {
		String type = Json.stringOrNull(part, "type", "a content part's type");
		if ("text".equals(type) || "input_text".equals(type)) {
			if (Json.stringOrNull(part, "text", "a text part's text") != null) {
				slots.add(new TextSlot(part, "text"));
			}
		}
		else if ("refusal".equals(type)) {
			if (Json.stringOrNull(part, "refusal", "a refusal part's refusal") != null) {
				slots.add(new TextSlot(part, "refusal"));
			}
		}
		else if ("image_url".equals(type)) {
			ObjectNode image = Json.objectOrNull(part, "image_url", "an image part's image_url");
			parts.add(new PromptPart.Media(
					InlineMedia.url((image != null) ? Json.stringOrNull(image, "url", "an image's url") : null)));
		}
		else if ("input_audio".equals(type)) {
			ObjectNode audio = Json.objectOrNull(part, "input_audio", "an audio part's input_audio");
			String format = (audio != null) ? Json.stringOrNull(audio, "format", "an audio's format") : null;
			parts.add(new PromptPart.Media(InlineMedia.base64((format != null) ? "audio/" + format : null,
					(audio != null) ? Json.stringOrNull(audio, "data", "an audio's data") : null)));
		}
		else if ("file".equals(type)) {
			ObjectNode file = Json.objectOrNull(part, "file", "a file part's file");
			String data = (file != null) ? Json.stringOrNull(file, "file_data", "a file's file_data") : null;
			parts.add(new PromptPart.Media((data != null) ? InlineMedia.url(data) : InlineMedia.reference(null)));
		}
		else {
			parts.add(new PromptPart.Media(InlineMedia.unknown(type)));
		}
	}

	@Override
	public List<AnswerPart> answer(ObjectNode answer) {
		List<ObjectNode> choices = Json.objects(answer, "choices", "choices");
		if (choices.size() > MAX_GENERATIONS) {
			throw new BadInput("the answer has more than " + MAX_GENERATIONS + " choices");
		}
		List<AnswerPart> parts = new ArrayList<>(choices.size());
		for (ObjectNode choice : choices) {
			ObjectNode message = Json.objectOrNull(choice, "message", "a choice's message");
			if (message == null) {
				continue;
			}
			List<TextSlot> slots = new ArrayList<>();
			TextSlot.stringOrParts(message, "content", "a message's content", slots, (part) -> {
				if (part.path("text").isString()) {
					slots.add(new TextSlot(part, "text"));
				}
			});
			if (message.path("refusal").isString()) {
				slots.add(new TextSlot(message, "refusal"));
			}
			StringBuilder toolCalls = new StringBuilder();
			for (ObjectNode call : Json.objects(message, "tool_calls", "a message's tool_calls")) {
				ObjectNode function = Json.objectOrNull(call, "function", "a tool call's function");
				if (function != null) {
					appendCall(toolCalls, function);
				}
			}
			ObjectNode legacy = Json.objectOrNull(message, "function_call", "a message's function_call");
			if (legacy != null) {
				appendCall(toolCalls, legacy);
			}
			parts.add(new AnswerPart(slots, toolCalls.toString()));
		}
		return parts;
	}

	private static void appendCall(StringBuilder toolCalls, ObjectNode function) {
		String name = Json.stringOrNull(function, "name", "a function's name");
		JsonNode arguments = function.get("arguments");
		toolCalls.append((name != null) ? name : "")
			.append('(')
			.append((arguments == null || arguments.isNull()) ? "" : arguments.isString() ? arguments.stringValue()
					: Json.string(arguments))
			.append(")\n");
	}

	@Override
	public ObjectNode refusedAnswer(ObjectNode answer) {
		ObjectNode refused = answer.deepCopy();
		ArrayNode choices = refused.putArray("choices");
		int count = Math.max(1, Json.objects(answer, "choices", "choices").size());
		for (int i = 0; i < count; i++) {
			ObjectNode choice = choices.addObject();
			choice.put("index", i);
			ObjectNode message = choice.putObject("message");
			message.put("role", "assistant");
			message.putNull("content");
			choice.put("finish_reason", "content_filter");
		}
		return refused;
	}

	@Override
	public ObjectNode error(Failure failure, String message) {
		ObjectNode body = Json.newObject();
		ObjectNode error = body.putObject("error");
		error.put("message", message);
		error.put("type", (failure.status() >= 500) ? "server_error" : "invalid_request_error");
		error.putNull("param");
		error.put("code", switch (failure) {
			case PROMPT_REFUSED -> "content_filter";
			case INVALID_REQUEST -> "invalid_request";
			case REQUEST_TOO_LARGE -> "request_too_large";
			case UNSUPPORTED_ENCODING -> "unsupported_content_encoding";
			case BAD_ANSWER -> "bad_gateway";
			case NOT_SCREENED -> "model_armor_unavailable";
		});
		return body;
	}

	@Override
	public StreamEvent event(SseEvent event) {
		String data = event.data();
		if (data == null) {
			return StreamEvent.opaque(event, false);
		}
		if (data.strip().equals(DONE)) {
			return StreamEvent.opaque(event, true);
		}
		ObjectNode json = Json.object(data, "an event of the streamed answer");
		List<StreamEvent.Text> texts = new ArrayList<>();
		List<StreamEvent.ToolFragment> tools = new ArrayList<>();
		boolean ends = false;
		for (ObjectNode choice : Json.objects(json, "choices", "an event's choices")) {
			int index = generation(choice);
			ObjectNode delta = Json.objectOrNull(choice, "delta", "a choice's delta");
			if (delta != null) {
				if (Json.stringOrNull(delta, "content", "a delta's content") != null) {
					texts.add(new StreamEvent.Text(index, new TextSlot(delta, "content")));
				}
				if (Json.stringOrNull(delta, "refusal", "a delta's refusal") != null) {
					texts.add(new StreamEvent.Text(index, new TextSlot(delta, "refusal")));
				}
				for (ObjectNode call : Json.objects(delta, "tool_calls", "a delta's tool_calls")) {
					ObjectNode function = Json.objectOrNull(call, "function", "a tool call's function");
					String key = index + ":" + call.path("index").asString("0");
					String name = (function != null) ? Json.stringOrNull(function, "name", "a function's name") : null;
					String arguments = (function != null)
							? Json.stringOrNull(function, "arguments", "a function's arguments") : null;
					tools.add(new StreamEvent.ToolFragment(key, name, (arguments != null) ? arguments : ""));
				}
				ObjectNode legacy = Json.objectOrNull(delta, "function_call", "a delta's function_call");
				if (legacy != null) {
					String arguments = Json.stringOrNull(legacy, "arguments", "a function's arguments");
					tools.add(new StreamEvent.ToolFragment(index + ":f",
							Json.stringOrNull(legacy, "name", "a function's name"), (arguments != null) ? arguments : ""));
				}
			}
			JsonNode finish = choice.get("finish_reason");
			if (finish != null && !finish.isNull()) {
				ends = true;
			}
		}
		return new StreamEvent(event, json, texts, tools, ends);
	}

	private static int generation(ObjectNode choice) {
		JsonNode index = choice.get("index");
		if (index == null || index.isNull()) {
			return 0;
		}
		if (!index.isIntegralNumber() || !index.canConvertToInt() || index.intValue() < 0
				|| index.intValue() >= MAX_GENERATIONS) {
			throw new BadInput("a choice's index is not from 0 to " + (MAX_GENERATIONS - 1));
		}
		return index.intValue();
	}

	@Override
	public StreamEnding ending() {
		return new Ending();
	}

	/** Ends a refused stream as Azure OpenAI ends a filtered one: {@code finish_reason: "content_filter"}. */
	private final class Ending implements StreamEnding {

		private @Nullable ObjectNode last;

		private final Set<Integer> choices = new LinkedHashSet<>();

		@Override
		public void released(StreamEvent event) {
			ObjectNode json = event.json();
			if (json != null && json.has("choices")) {
				this.last = json;
				for (JsonNode choice : json.path("choices")) {
					this.choices.add(choice.path("index").asInt(0));
				}
			}
		}

		@Override
		public List<String> refused() {
			ObjectNode chunk = Json.newObject();
			ObjectNode last = this.last;
			if (last != null) {
				for (String field : List.of("id", "object", "created", "model", "system_fingerprint")) {
					JsonNode value = last.get(field);
					if (value != null) {
						chunk.set(field, value);
					}
				}
			}
			else {
				chunk.put("object", "chat.completion.chunk");
			}
			ArrayNode choices = chunk.putArray("choices");
			for (int index : this.choices.isEmpty() ? Set.of(0) : this.choices) {
				ObjectNode choice = choices.addObject();
				choice.put("index", index);
				choice.putObject("delta");
				choice.put("finish_reason", "content_filter");
			}
			return List.of(SseEvent.write(null, Json.string(chunk)), SseEvent.write(null, DONE));
		}

		@Override
		public List<String> failed(Failure failure, String message) {
			return List.of(SseEvent.write(null, Json.string(error(failure, message))));
		}

	}

}
