package dev.modelarmor.autoconfigure;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import com.google.auth.oauth2.GoogleCredentials;
import org.junit.jupiter.api.BeforeAll;
import java.util.Map;

import dev.modelarmor.guard.ModelArmorGuarded;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.env.OriginTrackedMapPropertySource;
import org.springframework.boot.origin.OriginTrackedValue;
import org.springframework.boot.origin.TextResourceOrigin;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.SimpleCommandLinePropertySource;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The startup failure report: every setting the client cannot start without that is missing, in one
 * report, each with what to do about it.
 */
@ExtendWith(OutputCaptureExtension.class)
class StartupReportTests {

	static final String HEADLINE = "Model Armor is not configured correctly:";

	static final String TEMPLATE_ID = "modelarmor.template-id: no default template is set";

	static final String TEMPLATE_ID_ACTION = "Set modelarmor.template-id to the id of the Model Armor template to "
			+ "screen with, unless every call and annotation names its template";

	static final String CREDENTIALS = "modelarmor.credentials.location: no Application Default Credentials were found";

	static final String CREDENTIALS_ACTION = "Run `gcloud auth application-default login`, or set "
			+ "modelarmor.credentials.location to a credentials JSON file, or define a ModelArmorCredentialsProvider "
			+ "bean; for a local stand-in only, set modelarmor.credentials.enabled=false";

	static final String PROJECT_ID = "modelarmor.project-id: no Google Cloud project id is configured";

	static final String PROJECT_ID_ACTION = "Set modelarmor.project-id, or spring.cloud.gcp.project-id, or the "
			+ "GOOGLE_CLOUD_PROJECT environment variable, or use credentials that carry a project "
			+ "(a service-account key's project_id)";

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ModelArmorAutoConfiguration.class));

	@BeforeAll
	static void noProjectInTheEnvironment() {
		assumeTrue(System.getenv("GOOGLE_CLOUD_PROJECT") == null, "GOOGLE_CLOUD_PROJECT is set on this machine");
	}

	@Test
	void withNothingConfiguredOneReportListsEveryMissingSetting() {
		assumeNoApplicationDefaultCredentials();
		this.runner.run((context) -> {
			FailureAnalysis analysis = analyze(context);
			assertThat(analysis.getDescription()).isEqualTo(HEADLINE + "\n  - " + TEMPLATE_ID + "\n  - " + CREDENTIALS
					+ "\n  - " + PROJECT_ID);
			assertThat(analysis.getAction()).isEqualTo("Do each of these:\n  - " + TEMPLATE_ID_ACTION + "\n  - "
					+ CREDENTIALS_ACTION + "\n  - " + PROJECT_ID_ACTION);
		});
	}

	@Test
	void theErrorsPageQuotesTheReport() throws IOException {
		assumeNoApplicationDefaultCredentials();
		String readme = Files.readString(readme().resolveSibling("docs").resolve("errors.md"), StandardCharsets.UTF_8);
		this.runner.run((context) -> {
			FailureAnalysis analysis = analyze(context);
			assertThat(readme).contains("Description:\n\n" + analysis.getDescription() + "\n\nAction:\n\n"
					+ analysis.getAction() + "\n");
		});
	}

	@Test
	void withoutADefaultTemplateAloneTheClientStarts() {
		this.runner.withPropertyValues("modelarmor.project-id=demo-project", "modelarmor.credentials.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void onlyTheProjectIdMissingIsReportedAlone() {
		this.runner.withPropertyValues("modelarmor.template-id=t", "modelarmor.credentials.enabled=false")
			.run((context) -> {
				FailureAnalysis analysis = analyze(context);
				assertThat(analysis.getDescription()).isEqualTo(HEADLINE + " " + PROJECT_ID);
				assertThat(analysis.getAction()).isEqualTo(PROJECT_ID_ACTION);
			});
	}

	@Test
	void theTemplateAndProjectIdsMissingWithCredentialsDisabled() {
		this.runner.withPropertyValues("modelarmor.credentials.enabled=false").run((context) -> {
			FailureAnalysis analysis = analyze(context);
			assertThat(analysis.getDescription()).isEqualTo(HEADLINE + "\n  - " + TEMPLATE_ID + "\n  - " + PROJECT_ID);
			assertThat(analysis.getAction())
				.isEqualTo("Do each of these:\n  - " + TEMPLATE_ID_ACTION + "\n  - " + PROJECT_ID_ACTION);
		});
	}

	@Test
	void aMissingKeyFileIsReportedWithTheOtherMissingSettings() {
		this.runner.withPropertyValues("modelarmor.credentials.location=file:/nonexistent/model-armor-sa.json")
			.run((context) -> {
				FailureAnalysis analysis = analyze(context);
				assertThat(analysis.getDescription()).isEqualTo(HEADLINE + "\n  - " + TEMPLATE_ID
						+ "\n  - modelarmor.credentials.location: URL [file:/nonexistent/model-armor-sa.json] does not exist"
						+ "\n  - " + PROJECT_ID);
				assertThat(analysis.getAction()).contains("\n  - Set modelarmor.credentials.location to a readable "
						+ "Google credentials JSON file (e.g. a service-account key), or unset it to use Application "
						+ "Default Credentials\n");
			});
	}

	@Test
	void anInvalidPropertyIsStillReportedNamingIt() {
		this.runner
			.withPropertyValues("modelarmor.template-id=t", "modelarmor.project-id=p",
					"modelarmor.credentials.enabled=false")
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.addFirst(new SimpleCommandLinePropertySource("--modelarmor.retry.max-backoff=500ms")))
			.run((context) -> {
				FailureAnalysis analysis = analyze(context);
				assertThat(analysis.getDescription()).isEqualTo(HEADLINE + " modelarmor.retry.max-backoff: the value "
						+ "'500ms' must not be less than initial-backoff (1000ms)");
				assertThat(analysis.getAction()).isEqualTo("Change modelarmor.retry.max-backoff where it is set: "
						+ "\"modelarmor.retry.max-backoff\" from property source \"commandLineArgs\"");
				assertThat(Files.readString(readme().resolveSibling("docs").resolve("errors.md"), StandardCharsets.UTF_8))
					.as("docs/errors.md, An invalid property")
					.contains("Description:\n\n" + analysis.getDescription() + "\n\nAction:\n\n" + analysis.getAction()
							+ "\n");
			});
	}

	@Test
	void everythingSetStarts() {
		this.runner
			.withPropertyValues("modelarmor.template-id=t", "modelarmor.project-id=p",
					"modelarmor.credentials.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void aMisspeltKeyStopsTheStartNamingItWhereItIsSetAndTheNearestProperty() {
		this.runner
			.withPropertyValues("modelarmor.template-id=t", "modelarmor.project-id=p",
					"modelarmor.credentials.enabled=false", "modelarmor.screening.fail-opne=true",
					"modelarmor.retry.dealine=5s")
			.run((context) -> {
				FailureAnalysis analysis = analyze(context);
				assertThat(analysis.getDescription()).isEqualTo(HEADLINE
						+ "\n  - modelarmor.screening.fail-opne: is not a property of the Model Armor starter "
						+ "(\"modelarmor.screening.fail-opne\" from property source \"test\"); did you mean modelarmor.screening.fail-open?"
						+ "\n  - modelarmor.retry.dealine: is not a property of the Model Armor starter "
						+ "(\"modelarmor.retry.dealine\" from property source \"test\"); did you mean modelarmor.retry.deadline?");
				assertThat(analysis.getAction()).isEqualTo("Do each of these:"
						+ "\n  - Rename modelarmor.screening.fail-opne to modelarmor.screening.fail-open, or remove it "
						+ "(modelarmor.unknown-properties=warn starts anyway)"
						+ "\n  - Rename modelarmor.retry.dealine to modelarmor.retry.deadline, or remove it "
						+ "(modelarmor.unknown-properties=warn starts anyway)");
			});
	}

	@Test
	void aKeyFromAFileIsReportedWithItsFileAndLine() {
		this.runner.withPropertyValues("modelarmor.template-id=t", "modelarmor.project-id=p",
				"modelarmor.credentials.enabled=false")
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.addFirst(new OriginTrackedMapPropertySource("application.properties",
						Map.of("modelarmor.nonsense-setting", OriginTrackedValue.of("1",
								new TextResourceOrigin(new ByteArrayResource(new byte[0], "application.properties"),
										new TextResourceOrigin.Location(2, 0)))))))
			.run((context) -> assertThat(analyze(context).getDescription()).isEqualTo(HEADLINE
					+ " modelarmor.nonsense-setting: is not a property of the Model Armor starter (Byte array resource "
					+ "[application.properties] - 3:1)"));
	}

	@Test
	void unknownKeysAreAWarningWhenTheApplicationSaysSo(CapturedOutput output) {
		this.runner
			.withPropertyValues("modelarmor.template-id=t", "modelarmor.project-id=p",
					"modelarmor.credentials.enabled=false", "modelarmor.unknown-properties=warn",
					"modelarmor.retry.dealine=5s")
			.run((context) -> assertThat(context).hasNotFailed());
		assertThat(output).contains("Model Armor property is unknown and ignored: property=modelarmor.retry.dealine "
				+ "origin=\"'modelarmor.retry.dealine' from property source 'test'\" suggestion=modelarmor.retry.deadline");
		assertThat(output).doesNotContain("5s");
	}

	@Test
	void unknownKeysCanBeIgnored(CapturedOutput output) {
		this.runner
			.withPropertyValues("modelarmor.template-id=t", "modelarmor.project-id=p",
					"modelarmor.credentials.enabled=false", "modelarmor.unknown-properties=ignore",
					"modelarmor.retry.dealine=5s")
			.run((context) -> assertThat(context).hasNotFailed());
		assertThat(output).doesNotContain("modelarmor.retry.dealine");
	}

	@Test
	void theGuardsOldNameOfFailOpenStopsTheStartPointingToTheScreeningProperty() {
		// Never released, so no alias: a start that would silently keep failing closed tells the user instead.
		this.runner
			.withPropertyValues("modelarmor.template-id=t", "modelarmor.project-id=p",
					"modelarmor.credentials.enabled=false", "modelarmor.guard.fail-open=true")
			.run((context) -> {
				FailureAnalysis analysis = analyze(context);
				assertThat(analysis.getDescription()).isEqualTo(HEADLINE
						+ " modelarmor.guard.fail-open: is not a property of the Model Armor starter "
						+ "(\"modelarmor.guard.fail-open\" from property source \"test\"); "
						+ "did you mean modelarmor.screening.fail-open?");
				assertThat(analysis.getAction()).isEqualTo("Rename modelarmor.guard.fail-open to "
						+ "modelarmor.screening.fail-open, or remove it (modelarmor.unknown-properties=warn starts anyway)");
			});
	}

	@Test
	void everyProblemIsInOneReport() {
		this.runner.withConfiguration(AutoConfigurations.of(ModelArmorGuardAutoConfiguration.class))
			.withUserConfiguration(UnscreenableGuardedMethods.class)
			.withPropertyValues("modelarmor.template-id=", "modelarmor.http.read-timeout=-1s",
					"modelarmor.retry.deadline=0s", "modelarmor.retry.dealine=5s",
					"modelarmor.credentials.location=file:/nonexistent/model-armor-sa.json")
			.run((context) -> {
				FailureAnalysis analysis = analyze(context);
				assertThat(analysis.getDescription()).isEqualTo(HEADLINE
						+ "\n  - modelarmor.retry.dealine: is not a property of the Model Armor starter "
						+ "(\"modelarmor.retry.dealine\" from property source \"test\"); did you mean modelarmor.retry.deadline?"
						+ "\n  - modelarmor.template-id: the value '' is blank; remove it or name a template"
						+ "\n  - modelarmor.http.read-timeout: the value '-1s' must be positive"
						+ "\n  - modelarmor.retry.deadline: the value '0s' must be positive"
						+ "\n  - modelarmor.credentials.location: URL [file:/nonexistent/model-armor-sa.json] does not exist"
						+ "\n  - " + PROJECT_ID
						+ "\n  - @ModelArmorGuarded on StartupReportTests.UnscreenableGuardedMethods.count(String): returns no CharSequence "
						+ "or Optional<CharSequence>, nor a Mono, Flux or CompletableFuture of CharSequence, to screen as the response"
						+ "\n  - @ModelArmorGuarded on StartupReportTests.UnscreenableGuardedMethods.score(int): has no CharSequence "
						+ "argument to screen as the prompt");
			});
	}

	@Test
	void aGuardedMethodThatCannotBeScreenedIsReportedWhenAllElseIsSet() {
		this.runner.withConfiguration(AutoConfigurations.of(ModelArmorGuardAutoConfiguration.class))
			.withUserConfiguration(UnscreenableGuardedMethods.class)
			.withPropertyValues("modelarmor.template-id=t", "modelarmor.project-id=p",
					"modelarmor.credentials.enabled=false")
			.run((context) -> assertThat(analyze(context).getDescription()).isEqualTo(HEADLINE
					+ "\n  - @ModelArmorGuarded on StartupReportTests.UnscreenableGuardedMethods.count(String): returns no CharSequence "
					+ "or Optional<CharSequence>, nor a Mono, Flux or CompletableFuture of CharSequence, to screen as the response"
					+ "\n  - @ModelArmorGuarded on StartupReportTests.UnscreenableGuardedMethods.score(int): has no CharSequence "
					+ "argument to screen as the prompt"));
	}

	@Test
	void aLocationThatModelArmorDoesNotHaveStopsTheStartListingThem() {
		this.runner.withPropertyValues("modelarmor.template-id=t", "modelarmor.project-id=p",
				"modelarmor.credentials.enabled=false", "modelarmor.location=mars")
			.run((context) -> assertThat(analyze(context).getDescription()).isEqualTo(HEADLINE
					+ " modelarmor.location: the value 'mars' is not a Model Armor location; use one of us, eu, "
					+ "us-central1, us-east1, us-east4, us-west1, northamerica-northeast2, europe-southwest1, "
					+ "europe-west1, europe-west2, europe-west3, europe-west4, europe-west9, asia-northeast1, "
					+ "asia-northeast3, asia-south1, asia-southeast1, australia-southeast2, or add it to "
					+ "modelarmor.allowed-extra-locations"));
	}

	@Test
	void aNewLocationCanBeAllowed() {
		this.runner.withPropertyValues("modelarmor.template-id=t", "modelarmor.project-id=p",
				"modelarmor.credentials.enabled=false", "modelarmor.location=me-central2",
				"modelarmor.allowed-extra-locations=me-central2")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Configuration(proxyBeanMethods = false)
	static class UnscreenableGuardedMethods {

		@ModelArmorGuarded
		public int score(int points) {
			return points;
		}

		@ModelArmorGuarded(screenResponse = true)
		public int count(String text) {
			return text.length();
		}

	}

	private static FailureAnalysis analyze(AssertableApplicationContext context) {
		assertThat(context).hasFailed();
		FailureAnalysis analysis = new ModelArmorConfigurationFailureAnalyzer().analyze(context.getStartupFailure());
		assertThat(analysis).isNotNull();
		return analysis;
	}

	/** Whether this machine has Application Default Credentials decides what a start without settings lacks. */
	static void assumeNoApplicationDefaultCredentials() {
		boolean found;
		try {
			GoogleCredentials.getApplicationDefault();
			found = true;
		}
		catch (IOException ex) {
			found = false;
		}
		assumeTrue(!found, "Application Default Credentials are set up on this machine");
	}

	static Path readme() {
		Path directory = Path.of("").toAbsolutePath();
		while (!Files.exists(directory.resolve("README.md")) || !Files.exists(directory.resolve("docs"))) {
			directory = directory.getParent();
		}
		return directory.resolve("README.md");
	}

}
