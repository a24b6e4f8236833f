package dev.modelarmor.samples.springai;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.modelarmor.samples.standin.DeterministicResponder;
import reactor.core.publisher.Flux;

import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.context.annotation.Profile;
import org.springframework.stereotype.Component;

/**
 * A Spring AI {@link ChatModel} that stands in for an LLM in profile {@code local}, so that the sample
 * needs none. It is <b>deterministic</b>, not a model: it answers the last user message with the shared
 * {@link DeterministicResponder}'s rules, first match wins:
 * <ul>
 * <li>a message naming a parcel ({@code PX-1001}) with the {@code parcelStatus} tool (or the carrier's MCP
 * {@code trackParcel}) offered: a request to call it, and then the tool's result word for word
 * ({@link DeterministicToolCalls});</li>
 * <li>a message asking {@code which tools} it can use: the names of the tools offered, which it gets
 * from the {@code ToolCallingManager} as Spring AI's chat models do;</li>
 * <li>a message mentioning {@code support}: {@value #SUPPORT_REPLY}, so that the <em>answer</em> is
 * de-identified;</li>
 * <li>a message mentioning {@code link}: a reply with {@value #MALWARE_LINK}, Google Safe Browsing's test
 * malware page (listed by the stand-in, and flagged by the real {@code malicious_uris} filter too), so
 * that the <em>answer</em> is blocked;</li>
 * <li>{@code hello} or {@code hi}: a greeting;</li>
 * <li>anything else: {@code "You said: " + message}.</li>
 * </ul>
 * {@link #stream(Prompt)} sends the same answer in a few chunks. Every prompt it receives is recorded,
 * so that tests can tell what the model saw, and whether it was called at all.
 */
@Component
@Profile("local")
public class DeterministicChatModel implements ChatModel {

	/** The reply to a message about support. */
	public static final String SUPPORT_REPLY = DeterministicResponder.SUPPORT_REPLY;

	/** The link that a message asking for a link gets. */
	public static final String MALWARE_LINK = DeterministicResponder.MALWARE_LINK;

	/** The reply to a greeting. */
	public static final String GREETING = DeterministicResponder.GREETING;

	private static final DeterministicResponder RESPONDER = new DeterministicResponder();

	/** A word and the spaces after it: the chunks of a streamed answer are made of these. */
	private static final Pattern WORD = Pattern.compile("\\S+\\s*");

	private static final int CHUNKS = 3;

	private final List<String> received = new CopyOnWriteArrayList<>();

	private final ToolCallingManager toolCallingManager;

	DeterministicChatModel(ToolCallingManager toolCallingManager) {
		this.toolCallingManager = toolCallingManager;
	}

	@Override
	public ChatResponse call(Prompt prompt) {
		List<String> offered = DeterministicToolCalls.offered(prompt, this.toolCallingManager);
		AssistantMessage toolCall = DeterministicToolCalls.request(prompt, offered);
		if (toolCall != null) {
			receive(prompt);
			return new ChatResponse(List.of(new Generation(toolCall)));
		}
		String toolsAtHand = DeterministicToolCalls.toolsAtHand(prompt, offered);
		if (toolsAtHand != null) {
			receive(prompt);
			return response(toolsAtHand);
		}
		String toolAnswer = DeterministicToolCalls.answer(prompt);
		return response((toolAnswer != null) ? toolAnswer : answer(receive(prompt)));
	}

	/**
	 * Options that can carry tools, so that a {@code ChatClient} passes the tools it is given.
	 * @return empty tool-calling options
	 */
	@Override
	public ChatOptions getOptions() {
		return ToolCallingChatOptions.builder().build();
	}

	@Override
	public Flux<ChatResponse> stream(Prompt prompt) {
		String answer = answer(receive(prompt));
		return Flux.fromIterable(chunks(answer)).map(DeterministicChatModel::response);
	}

	/**
	 * The answer to a message.
	 * @param message the (screened) message
	 * @return the answer
	 */
	public static String answer(String message) {
		return RESPONDER.reply(message);
	}

	/**
	 * An answer cut into up to three chunks at word boundaries; joined, they are the answer.
	 * @param answer the answer
	 * @return the chunks
	 */
	public static List<String> chunks(String answer) {
		List<String> words = new ArrayList<>();
		Matcher matcher = WORD.matcher(answer);
		int end = 0;
		while (matcher.find()) {
			words.add(answer.substring(end, matcher.end()));
			end = matcher.end();
		}
		if (words.isEmpty()) {
			return List.of(answer);
		}
		int size = (words.size() + CHUNKS - 1) / CHUNKS;
		List<String> chunks = new ArrayList<>();
		for (int from = 0; from < words.size(); from += size) {
			chunks.add(String.join("", words.subList(from, Math.min(from + size, words.size()))));
		}
		return chunks;
	}

	/**
	 * The text of the last user message of every prompt received, oldest first.
	 * @return the user texts
	 */
	public List<String> receivedUserTexts() {
		return List.copyOf(this.received);
	}

	/**
	 * How many times the model was called, by {@code call} or {@code stream}.
	 * @return the count
	 */
	public int calls() {
		return this.received.size();
	}

	/**
	 * Forgets every prompt received.
	 */
	public void reset() {
		this.received.clear();
	}

	private String receive(Prompt prompt) {
		UserMessage user = prompt.getUserMessage();
		String text = (user != null && user.getText() != null) ? user.getText() : "";
		this.received.add(text);
		return text;
	}

	private static ChatResponse response(String text) {
		return new ChatResponse(List.of(new Generation(new AssistantMessage(text))));
	}

}
