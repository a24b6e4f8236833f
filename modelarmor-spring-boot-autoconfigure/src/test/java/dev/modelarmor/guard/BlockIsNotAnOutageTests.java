package dev.modelarmor.guard;

import java.util.function.Supplier;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.modelarmor.client.ModelArmorException;
import dev.modelarmor.screening.ModelArmorViolationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static dev.modelarmor.guard.ModelArmorStubs.JAILBREAK;
import static dev.modelarmor.guard.ModelArmorStubs.answerEverythingClean;
import static dev.modelarmor.guard.ModelArmorStubs.answerPrompt;
import static dev.modelarmor.guard.ModelArmorStubs.failEverything;
import static dev.modelarmor.guard.RecordService.QUESTION;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A caller can tell a block from an outage: {@link ModelArmorViolationException} (a verdict) is not a
 * {@link ModelArmorException} (Model Armor gave no usable result), so code that falls back on outages does
 * not turn a blocked prompt into a fallback answer.
 */
class BlockIsNotAnOutageTests {

	static final String FALLBACK = "Screening is unavailable, please try again later";

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	private final ApplicationContextRunner runner = ModelArmorStubs.runner(modelArmor)
		.withUserConfiguration(ModelArmorStubs.InstantRetries.class, RecordService.Beans.class);

	@Test
	void codeThatCatchesOutagesDoesNotCatchABlock() {
		answerEverythingClean(modelArmor);
		answerPrompt(modelArmor, QUESTION, JAILBREAK);
		this.runner.run((context) -> {
			RecordService records = context.getBean(RecordService.class);
			assertThatExceptionOfType(ModelArmorViolationException.class)
				.isThrownBy(() -> fallingBackOnOutages(() -> records.summarise(QUESTION)))
				.satisfies((ex) -> assertThat(ex).isNotInstanceOf(ModelArmorException.class));
			assertThat(context.getBean(BodyRuns.class).count()).isZero();
		});
	}

	@Test
	void codeThatCatchesOutagesCatchesAFailClosedCall() {
		failEverything(modelArmor);
		this.runner.run((context) -> {
			RecordService records = context.getBean(RecordService.class);
			assertThat(fallingBackOnOutages(() -> records.summarise(QUESTION))).isEqualTo(FALLBACK);
			assertThat(context.getBean(BodyRuns.class).count()).isZero();
		});
	}

	/** How an application falls back when Model Armor is down. */
	private static String fallingBackOnOutages(Supplier<String> call) {
		try {
			return call.get();
		}
		catch (ModelArmorException ex) {
			return FALLBACK;
		}
	}

}
