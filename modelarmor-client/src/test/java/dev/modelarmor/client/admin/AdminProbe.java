package dev.modelarmor.client.admin;

import java.util.List;
import java.util.Set;

/**
 * A record of the management package that remembers the stack that created it, for
 * {@code RecordConstructorInstantiatorsTests}.
 *
 * @param name any value
 * @param createdBy the classes on the stack when the constructor ran
 */
public record AdminProbe(String name, List<String> createdBy) {

	public AdminProbe {
		createdBy = StackWalker
			.getInstance(Set.of(StackWalker.Option.SHOW_REFLECT_FRAMES, StackWalker.Option.SHOW_HIDDEN_FRAMES))
			.walk((frames) -> frames.map(StackWalker.StackFrame::getClassName).toList());
	}

}
