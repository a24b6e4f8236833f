package dev.modelarmor.gateway.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.modelarmor.screening.internal.stream.StreamSegments;
import org.jspecify.annotations.Nullable;

/**
 * The chunk the stream segments hold: one event, or the events of a message's tool calls from the first
 * fragment to the event that ends them, so that a call's arguments are screened whole before any of its
 * fragments is released.
 *
 * @param events the events, in order
 */
record EventGroup(List<StreamEvent> events) {

	int size() {
		int size = 0;
		for (StreamEvent event : this.events) {
			size += event.size();
		}
		return size;
	}

	/** The stream segments' view of a group: its text per generation, its tool calls, de-identified in place. */
	static final class Chunks implements StreamSegments.Chunks<EventGroup> {

		static final Chunks INSTANCE = new Chunks();

		@Override
		public List<String> texts(EventGroup group) {
			List<StringBuilder> texts = new ArrayList<>();
			for (StreamEvent event : group.events()) {
				for (StreamEvent.Text text : event.texts()) {
					while (texts.size() <= text.generation()) {
						texts.add(new StringBuilder());
					}
					texts.get(text.generation()).append(text.slot().text());
				}
			}
			List<String> result = new ArrayList<>(texts.size());
			texts.forEach((text) -> result.add(text.toString()));
			return result;
		}

		@Override
		public EventGroup withTexts(EventGroup group, List<@Nullable String> texts) {
			boolean[] placed = new boolean[texts.size()];
			for (StreamEvent event : group.events()) {
				for (StreamEvent.Text text : event.texts()) {
					int g = text.generation();
					String replacement = (g < texts.size()) ? texts.get(g) : null;
					if (replacement != null) {
						text.slot().set(placed[g] ? "" : replacement);
						placed[g] = true;
						event.rewritten();
					}
				}
			}
			return group;
		}

		@Override
		public String toolCalls(EventGroup group) {
			Map<String, StringBuilder> calls = new LinkedHashMap<>();
			for (StreamEvent event : group.events()) {
				for (StreamEvent.ToolFragment fragment : event.tools()) {
					StringBuilder call = calls.computeIfAbsent(fragment.key(), (key) -> new StringBuilder());
					String name = fragment.name();
					if (name != null) {
						call.append(name).append('(');
					}
					call.append(fragment.arguments());
				}
			}
			StringBuilder all = new StringBuilder();
			calls.values().forEach((call) -> all.append(call).append(")\n"));
			return all.toString();
		}

	}

	/**
	 * Groups a stream's events: a tool call's fragments stay with the events up to the one that ends them.
	 * Not thread-safe: one stream gives it its events one at a time.
	 */
	static final class Grouper {

		private @Nullable List<StreamEvent> open;

		List<EventGroup> accept(StreamEvent event) {
			List<StreamEvent> open = this.open;
			if (open != null) {
				open.add(event);
				if (event.endsToolCalls()) {
					this.open = null;
					return List.of(new EventGroup(open));
				}
				return List.of();
			}
			if (!event.tools().isEmpty() && !event.endsToolCalls()) {
				List<StreamEvent> started = new ArrayList<>();
				started.add(event);
				this.open = started;
				return List.of();
			}
			return List.of(new EventGroup(List.of(event)));
		}

		List<EventGroup> finish() {
			List<StreamEvent> open = this.open;
			this.open = null;
			return (open != null) ? List.of(new EventGroup(open)) : List.of();
		}

	}

}
