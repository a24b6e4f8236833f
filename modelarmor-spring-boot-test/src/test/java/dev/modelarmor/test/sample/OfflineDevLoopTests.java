package dev.modelarmor.test.sample;

import dev.modelarmor.test.ModelArmorStandIn;
import dev.modelarmor.test.ModelArmorStandInConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * The README's offline loop: one's own application's main, run with the stand-in configuration, screens
 * against the stand-in; and the start's template check against the stand-in, told which templates exist.
 */
@ExtendWith(OutputCaptureExtension.class)
class OfflineDevLoopTests {

	@Test
	void theApplicationsOwnMainRunsAgainstTheStandIn() {
		try (ConfigurableApplicationContext context = SpringApplication.from(SampleApplication::main)
			.with(ModelArmorStandInConfiguration.class)
			.run("--server.port=0")
			.getApplicationContext()) {
			ModelArmorStandIn standIn = context.getBean(ModelArmorStandIn.class);
			assertThat(context.getBean(ChatService.class).reply("hello")).isEqualTo("You said: hello");
			assertThat(standIn.receivedPrompts()).containsExactly("hello");
			assertThat(standIn.received()).allSatisfy((request) -> assertThat(request.template())
				.isEqualTo("stand-in-template"));
		}
	}

	@Test
	void oneInfoLineNamesTheStandInItsAddressAndTheIdsItMadeUp(CapturedOutput output) {
		String url;
		try (ConfigurableApplicationContext context = SpringApplication.from(SampleApplication::main)
			.with(ModelArmorStandInConfiguration.class)
			.run("--server.port=0")
			.getApplicationContext()) {
			url = context.getBean(ModelArmorStandIn.class).url();
		}
		assertThat(url).startsWith("http://127.0.0.1:");
		assertThat(output.getOut().lines().filter((line) -> line.contains("Model Armor stand-in"))).singleElement()
			.satisfies((line) -> assertThat(line).contains(" INFO ").endsWith("Model Armor stand-in (not Model Armor: "
					+ "simple local rules) listening on " + url + "; the Model Armor client calls it, without credentials; "
					+ "not set by the application, so made up for the stand-in: modelarmor.project-id=stand-in-project, "
					+ "modelarmor.template-id=stand-in-template (set them before running against Model Armor)"));
	}

	@Test
	void idsTheApplicationSetsAreNotSaidToBeMadeUp(CapturedOutput output) {
		try (ConfigurableApplicationContext context = SpringApplication.from(SampleApplication::main)
			.with(ModelArmorStandInConfiguration.class)
			.run("--server.port=0", "--modelarmor.project-id=my-project", "--modelarmor.template-id=my-template")
			.getApplicationContext()) {
			assertThat(context.getBean(ModelArmorStandIn.class).received()).isEmpty();
		}
		assertThat(output.getOut().lines().filter((line) -> line.contains("Model Armor stand-in"))).singleElement()
			.satisfies((line) -> assertThat(line).endsWith("; the Model Armor client calls it, without credentials"));
	}

	@Test
	void aTemplateTheStandInDoesNotHaveStopsTheStart(CapturedOutput output) {
		try (ModelArmorStandIn standIn = ModelArmorStandIn.start().onlyTemplates("stand-in-template")) {
			assertThatException().isThrownBy(() -> SpringApplication.run(SampleApplication.class, "--server.port=0",
					"--modelarmor.endpoint=" + standIn.url(), "--modelarmor.credentials.enabled=false",
					"--modelarmor.project-id=p", "--modelarmor.template-id=stand-in-template"));
		}
		assertThat(output).contains("Description:\n\nModel Armor is not configured correctly: @ModelArmorGuarded on "
				+ "ChatService#strictReply: names the template 'strict-template', which does not exist in location "
				+ "us-central1\n\nAction:\n\nCreate the template strict-template in location us-central1 (gcloud "
				+ "model-armor templates create), or name one that exists; modelarmor.template-check.enabled=false "
				+ "skips this check\n");
	}

}
