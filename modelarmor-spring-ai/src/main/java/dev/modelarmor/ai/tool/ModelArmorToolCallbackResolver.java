package dev.modelarmor.ai.tool;

import java.util.Objects;

import org.jspecify.annotations.Nullable;

import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.resolution.ToolCallbackResolver;

/**
 * A {@link ToolCallbackResolver} whose tools are {@link ModelArmorToolCallback}s: tools resolved by name,
 * such as tool callback beans, have their arguments and results screened like the tools given to a
 * {@code ChatClient}.
 */
public final class ModelArmorToolCallbackResolver implements ToolCallbackResolver {

	private final ToolCallbackResolver delegate;

	private final ModelArmorToolScreener screener;

	/**
	 * Wraps a resolver.
	 * @param delegate the resolver that finds the tools
	 * @param screener screens each tool's arguments and result
	 */
	public ModelArmorToolCallbackResolver(ToolCallbackResolver delegate, ModelArmorToolScreener screener) {
		this.delegate = Objects.requireNonNull(delegate, "delegate");
		this.screener = Objects.requireNonNull(screener, "screener");
	}

	@Override
	public @Nullable ToolCallback resolve(String toolName) {
		ToolCallback tool = this.delegate.resolve(toolName);
		return (tool != null) ? ModelArmorToolCallback.wrap(tool, this.screener) : null;
	}

}
