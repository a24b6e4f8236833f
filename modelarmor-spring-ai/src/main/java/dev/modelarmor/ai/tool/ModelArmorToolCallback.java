package dev.modelarmor.ai.tool;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;
import org.springframework.ai.tool.metadata.ToolMetadata;

/**
 * A tool whose arguments and result are screened with Model Armor by a {@link ModelArmorToolScreener}:
 * the arguments before the tool runs, the result before the model reads it. A blocked call does not run
 * the tool; a blocked result never reaches the model; a tool whose definition is blocked does not run
 * (the model was not offered it, but may call it by name anyway). Either way the model reads the refusal as the
 * tool's result, or the call fails ({@link ModelArmorToolOptions.OnBlockedTool}).
 *
 * <p>With {@code modelarmor.spring-ai.tools.enabled=true} every tool that Spring AI's tool calling runs
 * is wrapped; to screen a single tool by hand:
 *
 * <pre class="code">
 * chatClient.prompt().user(question).tools(ModelArmorToolCallback.wrap(weatherTool, toolScreener))
 * </pre>
 */
public final class ModelArmorToolCallback implements ToolCallback {

	private final ToolCallback delegate;

	private final ModelArmorToolScreener screener;

	private ModelArmorToolCallback(ToolCallback delegate, ModelArmorToolScreener screener) {
		this.delegate = delegate;
		this.screener = screener;
	}

	/**
	 * Wraps a tool so that its arguments and result are screened. A tool that is already wrapped is
	 * returned as it is, so that it is never screened twice.
	 * @param tool the tool
	 * @param screener screens its arguments and result
	 * @return the screened tool
	 */
	public static ToolCallback wrap(ToolCallback tool, ModelArmorToolScreener screener) {
		Objects.requireNonNull(tool, "tool");
		Objects.requireNonNull(screener, "screener");
		return (tool instanceof ModelArmorToolCallback) ? tool : new ModelArmorToolCallback(tool, screener);
	}

	/**
	 * Wraps tools so that their arguments and results are screened.
	 * @param tools the tools
	 * @param screener screens their arguments and results
	 * @return the screened tools, in the same order
	 */
	public static List<ToolCallback> wrap(List<ToolCallback> tools, ModelArmorToolScreener screener) {
		return tools.stream().map((tool) -> wrap(tool, screener)).toList();
	}

	/**
	 * The tool this one screens.
	 * @return the wrapped tool
	 */
	public ToolCallback delegate() {
		return this.delegate;
	}

	@Override
	public ToolDefinition getToolDefinition() {
		return this.delegate.getToolDefinition();
	}

	@Override
	public ToolMetadata getToolMetadata() {
		return this.delegate.getToolMetadata();
	}

	@Override
	public String call(String toolInput) {
		return screened(toolInput, this.delegate::call, Map.of());
	}

	@Override
	public String call(String toolInput, @Nullable ToolContext toolContext) {
		return screened(toolInput, (input) -> this.delegate.call(input, toolContext),
				(toolContext != null) ? toolContext.getContext() : Map.of());
	}

	private String screened(String toolInput, Function<String, @Nullable String> tool,
			Map<String, ? extends @Nullable Object> context) {
		ToolDefinition definition = getToolDefinition();
		if (!this.screener.offers(definition, context)) {
			return this.screener.options().refusal();
		}
		String name = definition.name();
		ModelArmorToolScreener.Screened arguments = this.screener.screenArguments(name, toolInput, context);
		if (arguments.refused()) {
			return arguments.text();
		}
		String result = tool.apply(arguments.text());
		return this.screener.screenResult(name, (result != null) ? result : "", context).text();
	}

}
