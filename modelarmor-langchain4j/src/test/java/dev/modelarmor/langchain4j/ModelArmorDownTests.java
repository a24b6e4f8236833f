package dev.modelarmor.langchain4j;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.langchain4j.guardrail.InputGuardrailException;
import dev.langchain4j.guardrail.OutputGuardrailException;
import dev.langchain4j.service.AiServices;
import dev.modelarmor.screening.ModelArmorNotScreenedException;
import dev.modelarmor.test.AutoConfigureModelArmorStandIn;
import dev.modelarmor.test.ModelArmorStandIn;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Model Armor down (HTTP 503 on every attempt), in real time: the AI service fails closed, within the retry
 * deadline, and the model is never called with an unscreened prompt nor the caller given an unscreened answer.
 */
@SpringBootTest(classes = ModelArmorDownTests.App.class,
		properties = { "modelarmor.retry.deadline=2s", "modelarmor.retry.initial-backoff=200ms",
				"modelarmor.retry.jitter=100ms", "modelarmor.retry.max-backoff=1s", "modelarmor.circuit-breaker.enabled=false" })
@AutoConfigureModelArmorStandIn(realTimeRetries = true)
class ModelArmorDownTests {

	/** The deadline, and slack for a loaded machine: the call must end well before a stuck call would. */
	private static final Duration BOUND = Duration.ofSeconds(2).plusSeconds(3);

	@Autowired
	ModelArmorStandIn modelArmor;

	@Autowired
	ModelArmorInputGuardrail inputGuardrail;

	@Autowired
	ModelArmorOutputGuardrail outputGuardrail;

	@Test
	void aPromptFailsClosedWithinTheDeadlineAndNeverReachesTheModel() {
		this.modelArmor.failWith(503).always();
		ScriptedModels.Chat model = new ScriptedModels.Chat(ScriptedModels.text("unused"));
		Assistant assistant = AiServices.builder(Assistant.class).chatModel(model).inputGuardrails(this.inputGuardrail)
			.outputGuardrails(this.outputGuardrail).build();

		long started = System.nanoTime();
		assertThatThrownBy(() -> assistant.chat("Where should I travel?")).isInstanceOf(InputGuardrailException.class)
			.hasCauseInstanceOf(ModelArmorNotScreenedException.class)
			.hasMessageNotContaining("travel");
		Duration took = Duration.ofNanos(System.nanoTime() - started);

		assertThat(took).isLessThan(BOUND);
		assertThat(model.requests).isEmpty();
		assertThat(this.modelArmor.received()).hasSizeGreaterThan(1);
	}

	@Test
	void aStreamedAnswerFailsClosedWithinTheDeadlineAndNothingOfItIsReleased() throws Exception {
		ScriptedModels.Streaming model = new ScriptedModels.Streaming(List.of("Paris ", "in May."));
		Assistant assistant = AiServices.builder(Assistant.class).streamingChatModel(model)
			.outputGuardrails(this.outputGuardrail).build();
		this.modelArmor.failWith(503).always();

		long started = System.nanoTime();
		ModelArmorAiServicesTests.Streamed streamed = ModelArmorAiServicesTests.stream(assistant, "Where?");
		Throwable failure = streamed.failure.get(10, TimeUnit.SECONDS);
		Duration took = Duration.ofNanos(System.nanoTime() - started);

		assertThat(failure).isInstanceOf(OutputGuardrailException.class)
			.hasCauseInstanceOf(ModelArmorNotScreenedException.class);
		assertThat(streamed.partials).isEmpty();
		assertThat(took).isLessThan(BOUND);
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class App {

	}

}
