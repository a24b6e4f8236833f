package dev.modelarmor.samples.langchain4j;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;

/**
 * A deterministic {@link ChatModel} in place of an LLM, recording what reaches it:
 * <ul>
 * <li>after a tool ran: {@code "The weather tool says: " + its result};</li>
 * <li>"weather in CITY": a call of the {@code weather} tool, when it is offered;</li>
 * <li>"tools": the names of the tools offered to it;</li>
 * <li>a prompt with retrieved guides: {@code "From our guides: " + the guides};</li>
 * <li>"link": an answer with a listed malicious URL (so the answer is blocked);</li>
 * <li>anything else: {@code "You said: " + message}.</li>
 * </ul>
 */
public class DeterministicModel implements ChatModel {

	/** The link in the answer to "link". */
	public static final String MALWARE_LINK = "http://malware.example/";

	private static final Pattern WEATHER = Pattern.compile("weather in (\\p{L}+)", Pattern.CASE_INSENSITIVE);

	/** How LangChain4j's default content injector introduces retrieved content. */
	private static final String RETRIEVED = "Answer using the following information:";

	private final List<ChatRequest> requests = new CopyOnWriteArrayList<>();

	@Override
	public ChatResponse doChat(ChatRequest request) {
		this.requests.add(request);
		return ChatResponse.builder().aiMessage(answer(request)).build();
	}

	/**
	 * Every request the model got.
	 * @return the requests
	 */
	public List<ChatRequest> requests() {
		return List.copyOf(this.requests);
	}

	/** Forgets the requests. */
	public void reset() {
		this.requests.clear();
	}

	static AiMessage answer(ChatRequest request) {
		List<ChatMessage> messages = request.messages();
		ChatMessage last = messages.get(messages.size() - 1);
		if (last instanceof ToolExecutionResultMessage result) {
			return AiMessage.from("The weather tool says: " + result.text());
		}
		String text = userText(messages);
		List<ToolSpecification> tools = (request.toolSpecifications() != null) ? request.toolSpecifications() : List.of();
		Matcher weather = WEATHER.matcher(text);
		if (weather.find() && tools.stream().anyMatch((tool) -> tool.name().equals("weather"))) {
			return AiMessage.from(ToolExecutionRequest.builder()
				.id("call-1")
				.name("weather")
				.arguments("{\"city\":\"" + weather.group(1) + "\"}")
				.build());
		}
		String lower = text.toLowerCase(Locale.ROOT);
		int retrieved = text.indexOf(RETRIEVED);
		if (retrieved >= 0) {
			return AiMessage.from("From our guides: " + text.substring(retrieved + RETRIEVED.length()).strip());
		}
		if (lower.contains("tools")) {
			return AiMessage.from("I can use: " + String.join(", ", tools.stream().map(ToolSpecification::name).toList()));
		}
		if (lower.contains("link")) {
			return AiMessage.from("Here is the link you asked for: " + MALWARE_LINK);
		}
		return AiMessage.from("You said: " + text);
	}

	private static String userText(List<ChatMessage> messages) {
		for (int i = messages.size() - 1; i >= 0; i--) {
			if (messages.get(i) instanceof UserMessage user) {
				return String.join("\n", user.contents().stream()
					.filter(TextContent.class::isInstance)
					.map((content) -> ((TextContent) content).text())
					.toList());
			}
		}
		return "";
	}

}
