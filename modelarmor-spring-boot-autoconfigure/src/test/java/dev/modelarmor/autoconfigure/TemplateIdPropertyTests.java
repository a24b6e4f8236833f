package dev.modelarmor.autoconfigure;

import java.util.List;

import dev.modelarmor.client.ModelArmorOperations;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code modelarmor.template-id} goes into the path of every sanitize call: an id Model Armor would never accept,
 * or one that would name another path, fails startup naming the property, as a tenant's template id does.
 */
class TemplateIdPropertyTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ModelArmorAutoConfiguration.class))
		.withPropertyValues("modelarmor.project-id=p", "modelarmor.credentials.enabled=false",
				"modelarmor.endpoint=http://localhost:1");

	@Test
	void aTemplateIdModelArmorWouldNeverAcceptFailsStartupNamingTheProperty() {
		for (String id : List.of(".", "..", "../../x", "%2E%2E", "%252e%252E", "t/../../other", "a/b", "a%2Fb",
				"a?b", "a#b", "a:b", "has space", "-leading-hyphen", "x".repeat(64), "caf\u00e9")) {
			this.runner.withPropertyValues("modelarmor.template-id=" + id).run((context) -> {
				assertThat(context).as(id).hasFailed();
				assertThat(context.getStartupFailure()).as(id)
					.hasStackTraceContaining("modelarmor.template-id: is not a template id Model Armor accepts")
					.hasStackTraceContaining("Set modelarmor.template-id to the id of the template as Model Armor "
							+ "shows it");
			});
		}
	}

	@Test
	void anOverlongTemplateIdIsNotQuotedWhole() {
		this.runner.withPropertyValues("modelarmor.template-id=" + "x".repeat(10_000)).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure())
				.hasStackTraceContaining("modelarmor.template-id: is not a template id Model Armor accepts");
			for (Throwable failure = context.getStartupFailure(); failure != null; failure = failure.getCause()) {
				assertThat(String.valueOf(failure.getMessage())).doesNotContain("x".repeat(100));
			}
		});
	}

	@Test
	void aBlankTemplateIdStillSaysItIsBlank() {
		this.runner.withPropertyValues("modelarmor.template-id=  ").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).hasStackTraceContaining("modelarmor.template-id")
				.hasStackTraceContaining("is blank; remove it or name a template");
		});
	}

	@Test
	void everyTemplateIdModelArmorCreatesStarts() {
		for (String id : List.of("strict", "Support_Bot-2", "_x", "9", "t".repeat(63))) {
			this.runner.withPropertyValues("modelarmor.template-id=" + id).run((context) -> {
				assertThat(context).as(id).hasNotFailed();
				assertThat(context).as(id).hasSingleBean(ModelArmorOperations.class);
			});
		}
	}

	@Test
	void noTemplateIdStarts() {
		this.runner.run((context) -> assertThat(context).hasNotFailed());
	}

}
