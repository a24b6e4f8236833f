package dev.modelarmor.client.internal;

import java.util.LinkedHashSet;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The three-way merge of JSON that {@link AsReadJson} sends: the JSON as read, changed where the value sent
 * differs from the value as read. Depth follows the views, which are as deep as the records; what only the
 * JSON as read holds is copied, never walked.
 */
final class ThreeWayJsonMerge {

	private ThreeWayJsonMerge() {
	}

	/**
	 * Three-way merge: {@code raw} is the JSON as read, {@code before} the view of it as read, {@code now} the
	 * view of the value sent. Where the views agree, what was read stays; where they differ, the value sent
	 * wins, and inside objects and arrays the same rule goes on member by member.
	 * @return the merged JSON, or {@code null} when the value sent leaves the member out
	 */
	static @Nullable JsonNode merge(@Nullable JsonNode raw, @Nullable JsonNode before, @Nullable JsonNode now) {
		if (now == null) {
			return null;
		}
		if (raw == null || before == null) {
			return now;
		}
		if (before.equals(now)) {
			return raw;
		}
		if (raw.isObject() && before.isObject() && now.isObject()) {
			ObjectNode merged = (ObjectNode) raw.deepCopy();
			Set<String> names = new LinkedHashSet<>(before.propertyNames());
			names.addAll(now.propertyNames());
			for (String name : names) {
				JsonNode member = merge(raw.get(name), before.get(name), now.get(name));
				if (member == null) {
					merged.remove(name);
				}
				else {
					merged.set(name, member);
				}
			}
			return merged;
		}
		if (raw.isArray() && before.isArray() && now.isArray() && raw.size() == before.size()) {
			return mergeArray((ArrayNode) raw, (ArrayNode) before, (ArrayNode) now);
		}
		return now;
	}

	/**
	 * An element sent unchanged takes the element as read that it equals (so an element removed before it, or
	 * a new one added, does not shift what the others carry); an element changed in place merges with the one
	 * read at its index; a new element is sent as built.
	 */
	private static ArrayNode mergeArray(ArrayNode raw, ArrayNode before, ArrayNode now) {
		boolean[] used = new boolean[before.size()];
		JsonNode[] picked = new JsonNode[now.size()];
		for (int sent = 0; sent < now.size(); sent++) {
			for (int read = 0; read < before.size(); read++) {
				if (!used[read] && before.get(read).equals(now.get(sent))) {
					picked[sent] = raw.get(read);
					used[read] = true;
					break;
				}
			}
		}
		ArrayNode merged = raw.arrayNode();
		for (int sent = 0; sent < now.size(); sent++) {
			JsonNode element = picked[sent];
			if (element == null) {
				if (sent < before.size() && !used[sent]) {
					used[sent] = true;
					element = merge(raw.get(sent), before.get(sent), now.get(sent));
				}
				else {
					element = now.get(sent);
				}
			}
			merged.add(element);
		}
		return merged;
	}

}
