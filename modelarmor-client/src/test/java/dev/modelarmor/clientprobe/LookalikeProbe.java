package dev.modelarmor.clientprobe;

import java.util.List;
import java.util.Set;

/**
 * A record whose package only starts with the client's name, for {@code RecordConstructorInstantiatorsTests}:
 * not one of the API's records.
 *
 * @param name any value
 * @param createdBy the classes on the stack when the constructor ran
 */
public record LookalikeProbe(String name, List<String> createdBy) {

	public LookalikeProbe {
		createdBy = StackWalker
			.getInstance(Set.of(StackWalker.Option.SHOW_REFLECT_FRAMES, StackWalker.Option.SHOW_HIDDEN_FRAMES))
			.walk((frames) -> frames.map(StackWalker.StackFrame::getClassName).toList());
	}

}
