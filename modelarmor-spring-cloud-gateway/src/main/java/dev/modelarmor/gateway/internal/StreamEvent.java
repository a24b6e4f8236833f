package dev.modelarmor.gateway.internal;

import java.util.List;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * A server-sent event of a streamed answer as its API's mapper reads it: the text it adds to each
 * generation, the tool-call fragments it carries, and whether it ends the tool calls of its message.
 */
final class StreamEvent {

	private final SseEvent sse;

	private final @Nullable ObjectNode json;

	private final List<Text> texts;

	private final List<ToolFragment> tools;

	private final boolean endsToolCalls;

	private boolean rewritten;

	StreamEvent(SseEvent sse, @Nullable ObjectNode json, List<Text> texts, List<ToolFragment> tools,
			boolean endsToolCalls) {
		this.sse = sse;
		this.json = json;
		this.texts = texts;
		this.tools = tools;
		this.endsToolCalls = endsToolCalls;
	}

	/** An event with nothing to screen, forwarded as it came. */
	static StreamEvent opaque(SseEvent sse, boolean endsToolCalls) {
		return new StreamEvent(sse, null, List.of(), List.of(), endsToolCalls);
	}

	SseEvent sse() {
		return this.sse;
	}

	@Nullable ObjectNode json() {
		return this.json;
	}

	List<Text> texts() {
		return this.texts;
	}

	List<ToolFragment> tools() {
		return this.tools;
	}

	boolean endsToolCalls() {
		return this.endsToolCalls;
	}

	void rewritten() {
		this.rewritten = true;
	}

	/** The event to forward: as it came, or written anew when de-identified text replaced some of it. */
	String wire() {
		ObjectNode data = this.json;
		return (this.rewritten && data != null) ? SseEvent.write(this.sse.name(), Json.string(data)) : this.sse.raw();
	}

	int size() {
		return this.sse.raw().length();
	}

	/**
	 * Text an event adds to a generation.
	 *
	 * @param generation the generation (choice, candidate) it belongs to, from 0
	 * @param slot where it sits in the event's JSON
	 */
	record Text(int generation, TextSlot slot) {
	}

	/**
	 * A piece of a tool call: its name when the call starts, a fragment of its arguments.
	 *
	 * @param key tells one call from another within a message
	 * @param name the tool's name, or {@code null} when this piece does not carry it
	 * @param arguments the piece of the arguments, possibly empty
	 */
	record ToolFragment(String key, @Nullable String name, String arguments) {
	}

}
