package dev.modelarmor.ai.advisor;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.model.tool.ToolExecutionResult;
import org.springframework.ai.tool.definition.DefaultToolDefinition;
import org.springframework.ai.tool.definition.ToolDefinition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@link PromptVerdictToolCallingManager} runs a model call's tools only once the verdict its prompt
 * carries says it passed, and calls without a verdict straight away.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class PromptVerdictToolCallingManagerTests {

	private static final ChatResponse TOOL_CALL = new ChatResponse(List.of(new Generation(new AssistantMessage(""))));

	private final RecordingManager delegate = new RecordingManager();

	private final PromptVerdictToolCallingManager manager = new PromptVerdictToolCallingManager(this.delegate);

	@Test
	void aPromptWithoutAVerdictRunsItsToolsAtOnce() {
		this.manager.executeToolCalls(new Prompt(new UserMessage("q"), ToolCallingChatOptions.builder().build()), TOOL_CALL);
		this.manager.executeToolCalls(new Prompt(new UserMessage("q"), ChatOptions.builder().build()), TOOL_CALL);
		this.manager.executeToolCalls(new Prompt(new UserMessage("q")), TOOL_CALL);
		assertThat(this.delegate.executed).hasSize(3);
	}

	@Test
	void toolsWaitForAPassAndThenRun() throws Exception {
		PromptVerdict verdict = new PromptVerdict();
		CompletableFuture<ToolExecutionResult> tools = CompletableFuture
			.supplyAsync(() -> this.manager.executeToolCalls(carrying(verdict), TOOL_CALL));
		Thread.sleep(100);
		assertThat(tools).isNotDone();
		assertThat(this.delegate.executed).isEmpty();
		verdict.decide(true);
		assertThat(tools.get(10, TimeUnit.SECONDS)).isNotNull();
		assertThat(this.delegate.executed).hasSize(1);
	}

	@Test
	void aRefusedPromptRunsNoTool() {
		PromptVerdict verdict = new PromptVerdict();
		verdict.decide(false);
		assertThatExceptionOfType(PromptVerdictToolCallingManager.PromptNotPassedException.class)
			.isThrownBy(() -> this.manager.executeToolCalls(carrying(verdict), TOOL_CALL))
			.withMessageContaining("not run");
		assertThat(this.delegate.executed).isEmpty();
	}

	@Test
	void theFirstDecisionStands() {
		PromptVerdict refused = new PromptVerdict();
		refused.decide(false);
		refused.decide(true);
		assertThat(refused.await()).isFalse();
		PromptVerdict passed = new PromptVerdict();
		passed.decide(true);
		passed.decide(false);
		assertThat(passed.await()).isTrue();
	}

	@Test
	void onlyAVerdictUnderItsKeyCounts() {
		Prompt other = new Prompt(new UserMessage("q"),
				ToolCallingChatOptions.builder().toolContext(PromptVerdict.KEY, "not a verdict").build());
		assertThat(PromptVerdict.of(other)).isNull();
		PromptVerdict verdict = new PromptVerdict();
		assertThat(PromptVerdict.of(carrying(verdict))).isSameAs(verdict);
	}

	@Test
	void toolDefinitionsAreTheDelegates() {
		ToolCallingChatOptions options = ToolCallingChatOptions.builder().build();
		assertThat(this.manager.resolveToolDefinitions(options)).isSameAs(this.delegate.definitions);
	}

	private static Prompt carrying(PromptVerdict verdict) {
		return new Prompt(new UserMessage("q"), ToolCallingChatOptions.builder().toolContext(PromptVerdict.KEY, verdict).build());
	}

	private static final class RecordingManager implements ToolCallingManager {

		final List<Prompt> executed = new CopyOnWriteArrayList<>();

		final List<ToolDefinition> definitions = List.of(DefaultToolDefinition.builder()
			.name("weather")
			.description("weather")
			.inputSchema("{}")
			.build());

		@Override
		public List<ToolDefinition> resolveToolDefinitions(ToolCallingChatOptions chatOptions) {
			return this.definitions;
		}

		@Override
		public ToolExecutionResult executeToolCalls(Prompt prompt, ChatResponse chatResponse) {
			this.executed.add(prompt);
			return ToolExecutionResult.builder().build();
		}

	}

}
