package dev.modelarmor.gateway.internal;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import dev.modelarmor.screening.Phase;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Gemini ({@code POST .../models/{model}:generateContent} and {@code :streamGenerateContent?alt=sse}), as
 * the Generative Language API and Vertex AI serve it. Untrusted: the text of every content (the user's
 * and the history's), inline media, function responses (as JSON), the system instruction when configured.
 * Answers: each candidate's text parts and function calls. Streams: each event a whole
 * {@code GenerateContentResponse}, function calls whole in one event, no closing event.
 */
final class GeminiMapper implements ApiMapper {

	@Override
	public boolean screens(String path) {
		String normalized = Paths.normalized(path);
		return normalized.endsWith(":generatecontent") || normalized.endsWith(":streamgeneratecontent");
	}

	@Override
	public Prompt prompt(ObjectNode request, boolean screenSystem) {
		if (!(request.get("contents") instanceof ArrayNode)) {
			throw new BadInput("contents is not an array");
		}
		List<PromptPart> parts = new ArrayList<>();
		String userText = null;
		if (screenSystem) {
			ObjectNode system = Json.objectOrNull(request, "systemInstruction", "systemInstruction");
			if (system == null) {
				system = Json.objectOrNull(request, "system_instruction", "system_instruction");
			}
			if (system != null) {
				content(system, parts);
			}
		}
		for (ObjectNode content : Json.objects(request, "contents", "contents")) {
			String text = content(content, parts);
			String role = Json.stringOrNull(content, "role", "a content's role");
			if (text != null && (role == null || role.equals("user"))) {
				userText = text;
			}
		}
		return new Prompt(parts, userText);
	}

	/** Adds one content's parts; returns its text, or {@code null} when it has none. */
	private static @Nullable String content(ObjectNode content, List<PromptPart> parts) {
		List<TextSlot> slots = new ArrayList<>();
		for (ObjectNode part : Json.objects(content, "parts", "a content's parts")) {
			if (Json.stringOrNull(part, "text", "a part's text") != null) {
				slots.add(new TextSlot(part, "text"));
			}
			ObjectNode inline = Json.objectOrNull(part, "inlineData", "a part's inlineData");
			if (inline == null) {
				inline = Json.objectOrNull(part, "inline_data", "a part's inline_data");
			}
			if (inline != null) {
				String mimeType = inline.path("mimeType").isString() ? inline.path("mimeType").stringValue()
						: Json.stringOrNull(inline, "mime_type", "an inline data's mime_type");
				parts.add(new PromptPart.Media(InlineMedia.base64(mimeType, Json.stringOrNull(inline, "data",
						"an inline data's data"))));
			}
			if (part.has("fileData") || part.has("file_data")) {
				parts.add(new PromptPart.Media(InlineMedia.reference(null)));
			}
			ObjectNode response = Json.objectOrNull(part, "functionResponse", "a part's functionResponse");
			if (response == null) {
				response = Json.objectOrNull(part, "function_response", "a part's function_response");
			}
			if (response != null) {
				JsonNode result = response.get("response");
				String name = Json.stringOrNull(response, "name", "a function response's name");
				String text = ((name != null) ? name + ": " : "") + ((result != null) ? Json.string(result) : "");
				parts.add(new PromptPart.Text(Phase.TOOL_RESULT, List.of(), text));
			}
		}
		if (slots.isEmpty()) {
			return null;
		}
		PromptPart.Text text = PromptPart.Text.of(Phase.PROMPT, slots);
		parts.add(text);
		return text.text();
	}

	@Override
	public List<AnswerPart> answer(ObjectNode answer) {
		List<ObjectNode> candidates = Json.objects(answer, "candidates", "candidates");
		if (candidates.size() > OpenAiMapper.MAX_GENERATIONS) {
			throw new BadInput("the answer has more than " + OpenAiMapper.MAX_GENERATIONS + " candidates");
		}
		List<AnswerPart> parts = new ArrayList<>(candidates.size());
		for (ObjectNode candidate : candidates) {
			ObjectNode content = Json.objectOrNull(candidate, "content", "a candidate's content");
			List<TextSlot> slots = new ArrayList<>();
			StringBuilder calls = new StringBuilder();
			if (content != null) {
				for (ObjectNode part : Json.objects(content, "parts", "a content's parts")) {
					if (Json.stringOrNull(part, "text", "a part's text") != null) {
						slots.add(new TextSlot(part, "text"));
					}
					ObjectNode call = functionCall(part);
					if (call != null) {
						calls.append(call(call)).append(")\n");
					}
				}
			}
			parts.add(new AnswerPart(slots, calls.toString()));
		}
		return parts;
	}

	private static @Nullable ObjectNode functionCall(ObjectNode part) {
		ObjectNode call = Json.objectOrNull(part, "functionCall", "a part's functionCall");
		return (call != null) ? call : Json.objectOrNull(part, "function_call", "a part's function_call");
	}

	private static String call(ObjectNode call) {
		String name = Json.stringOrNull(call, "name", "a function call's name");
		JsonNode args = call.get("args");
		return ((name != null) ? name : "") + "(" + ((args != null && !args.isNull()) ? Json.string(args) : "");
	}

	@Override
	public ObjectNode refusedAnswer(ObjectNode answer) {
		ObjectNode refused = answer.deepCopy();
		ArrayNode candidates = refused.putArray("candidates");
		int count = Math.max(1, Json.objects(answer, "candidates", "candidates").size());
		for (int i = 0; i < count; i++) {
			candidates.add(filtered(i));
		}
		return refused;
	}

	private static ObjectNode filtered(int index) {
		ObjectNode candidate = Json.newObject();
		ObjectNode content = candidate.putObject("content");
		content.put("role", "model");
		content.putArray("parts");
		candidate.put("finishReason", "SAFETY");
		candidate.put("index", index);
		return candidate;
	}

	@Override
	public ObjectNode error(Failure failure, String message) {
		ObjectNode body = Json.newObject();
		ObjectNode error = body.putObject("error");
		error.put("code", failure.status());
		error.put("message", message);
		error.put("status", (failure.status() >= 500) ? "UNAVAILABLE" : "INVALID_ARGUMENT");
		return body;
	}

	@Override
	public StreamEvent event(SseEvent event) {
		String data = event.data();
		if (data == null) {
			return StreamEvent.opaque(event, false);
		}
		ObjectNode json = Json.object(data, "an event of the streamed answer");
		List<StreamEvent.Text> texts = new ArrayList<>();
		List<StreamEvent.ToolFragment> tools = new ArrayList<>();
		List<ObjectNode> candidates = Json.objects(json, "candidates", "an event's candidates");
		for (int position = 0; position < candidates.size(); position++) {
			ObjectNode candidate = candidates.get(position);
			int index = generation(candidate, position);
			ObjectNode content = Json.objectOrNull(candidate, "content", "a candidate's content");
			if (content == null) {
				continue;
			}
			List<ObjectNode> parts = Json.objects(content, "parts", "a content's parts");
			for (int p = 0; p < parts.size(); p++) {
				ObjectNode part = parts.get(p);
				if (Json.stringOrNull(part, "text", "a part's text") != null) {
					texts.add(new StreamEvent.Text(index, new TextSlot(part, "text")));
				}
				ObjectNode call = functionCall(part);
				if (call != null) {
					String whole = call(call);
					int open = whole.indexOf('(');
					tools.add(new StreamEvent.ToolFragment(index + ":" + p, whole.substring(0, open),
							whole.substring(open + 1)));
				}
			}
		}
		// a function call comes whole in one event
		return new StreamEvent(event, json, texts, tools, true);
	}

	private static int generation(ObjectNode candidate, int position) {
		JsonNode index = candidate.get("index");
		int value = (index == null || index.isNull()) ? position
				: (index.isIntegralNumber() && index.canConvertToInt()) ? index.intValue() : -1;
		if (value < 0 || value >= OpenAiMapper.MAX_GENERATIONS) {
			throw new BadInput("a candidate's index is not from 0 to " + (OpenAiMapper.MAX_GENERATIONS - 1));
		}
		return value;
	}

	@Override
	public StreamEnding ending() {
		return new Ending();
	}

	/** Ends a refused stream as Gemini ends one its safety filters stopped: {@code finishReason: "SAFETY"}. */
	private final class Ending implements StreamEnding {

		private final Set<Integer> candidates = new LinkedHashSet<>();

		private @Nullable JsonNode modelVersion;

		@Override
		public void released(StreamEvent event) {
			ObjectNode json = event.json();
			if (json == null) {
				return;
			}
			int position = 0;
			for (JsonNode candidate : json.path("candidates")) {
				this.candidates.add(candidate.path("index").asInt(position++));
			}
			if (json.has("modelVersion")) {
				this.modelVersion = json.get("modelVersion");
			}
		}

		@Override
		public List<String> refused() {
			ObjectNode response = Json.newObject();
			ArrayNode candidates = response.putArray("candidates");
			for (int index : this.candidates.isEmpty() ? Set.of(0) : this.candidates) {
				candidates.add(filtered(index));
			}
			JsonNode version = this.modelVersion;
			if (version != null) {
				response.set("modelVersion", version);
			}
			return List.of(SseEvent.write(null, Json.string(response)));
		}

		@Override
		public List<String> failed(Failure failure, String message) {
			return List.of(SseEvent.write(null, Json.string(error(failure, message))));
		}

	}

}
