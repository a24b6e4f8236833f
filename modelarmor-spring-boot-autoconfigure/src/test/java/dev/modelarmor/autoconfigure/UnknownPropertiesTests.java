package dev.modelarmor.autoconfigure;

import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.modelarmor.autoconfigure.UnknownProperties.Unknown;
import org.junit.jupiter.api.Test;

import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * Misspelt {@code modelarmor.*} keys found, with the nearest property, in every spelling Spring Boot binds.
 */
class UnknownPropertiesTests {

	private final UnknownProperties finder = UnknownProperties.of(
			Set.of("modelarmor.screening.fail-open", "modelarmor.guard.enabled", "modelarmor.retry.deadline", "modelarmor.retry.max-backoff",
					"modelarmor.template-id", "modelarmor.spring-ai.advisor.on-match", "modelarmor.labels"),
			Set.of("modelarmor.labels"));

	@Test
	void aMisspeltKeyIsFoundWithTheNearestProperty() {
		MockEnvironment environment = new MockEnvironment().withProperty("modelarmor.screening.fail-opne", "true")
			.withProperty("modelarmor.retry.dealine", "5s");

		assertThat(this.finder.find(environment)).extracting(Unknown::key, Unknown::suggestion)
			.containsExactlyInAnyOrder(tuple("modelarmor.screening.fail-opne", "modelarmor.screening.fail-open"),
					tuple("modelarmor.retry.dealine", "modelarmor.retry.deadline"));
	}

	@Test
	void knownKeysInEveryRelaxedSpellingAreNotReported() {
		StandardEnvironment environment = new StandardEnvironment();
		environment.getPropertySources()
			.addFirst(new MapPropertySource("camel", Map.of("modelarmor.screening.failOpen", "true",
					"modelarmor.spring-ai.advisor.onMatch", "LOG_ONLY", "modelarmor.templateId", "t")));
		environment.getPropertySources()
			.replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
					new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
							Map.of("MODELARMOR_RETRY_MAXBACKOFF", "10s", "MODELARMOR_RETRY_DEADLINE", "5s")));

		assertThat(this.finder.find(environment)).isEmpty();
	}

	@Test
	void anEnvironmentVariableThatIsMisspeltIsFound() {
		StandardEnvironment environment = new StandardEnvironment();
		environment.getPropertySources()
			.replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
					new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
							Map.of("MODELARMOR_RETRY_DEADLIEN", "5s")));

		List<Unknown> unknown = this.finder.find(environment);

		assertThat(unknown).singleElement().satisfies((key) -> {
			assertThat(key.key()).isEqualTo("modelarmor.retry.deadlien");
			assertThat(key.suggestion()).isEqualTo("modelarmor.retry.deadline");
		});
	}

	@Test
	void aKeyInTheWrongGroupIsPointedToTheOneWithTheSameLastPart() {
		MockEnvironment environment = new MockEnvironment().withProperty("modelarmor.deadline", "5s");

		assertThat(this.finder.find(environment)).singleElement()
			.satisfies((key) -> assertThat(key.suggestion()).isEqualTo("modelarmor.retry.deadline"));
	}

	@Test
	void aKeyInTheWrongGroupIsPointedToItsNamesakeBeforeANearerNameOfAnotherProperty() {
		// guard.fail-open is 6 edits from guard.enabled and 9 from screening.fail-open
		MockEnvironment environment = new MockEnvironment().withProperty("modelarmor.guard.fail-open", "true");

		assertThat(this.finder.find(environment)).singleElement()
			.satisfies((key) -> assertThat(key.suggestion()).isEqualTo("modelarmor.screening.fail-open"));
	}

	@Test
	void aKeyAsFarAsAThirdOfItsCharactersStillGetsASuggestionAndATieGoesToTheFirstName() {
		// tempd is 5 edits from template-id, and 5 is a third of the 16 characters of modelarmor.tempd;
		// tmpld is 5 edits from both labels and template-id: the first by name wins, whatever the metadata's order
		MockEnvironment environment = new MockEnvironment().withProperty("modelarmor.tempd", "x")
			.withProperty("modelarmor.tmpld", "x");

		assertThat(this.finder.find(environment)).extracting(Unknown::key, Unknown::suggestion)
			.containsExactlyInAnyOrder(tuple("modelarmor.tempd", "modelarmor.template-id"),
					tuple("modelarmor.tmpld", "modelarmor.labels"));
	}

	@Test
	void aKeyFarFromEveryPropertyHasNoSuggestion() {
		MockEnvironment environment = new MockEnvironment().withProperty("modelarmor.something-else-entirely", "x");

		assertThat(this.finder.find(environment)).singleElement().satisfies((key) -> {
			assertThat(key.suggestion()).isNull();
			assertThat(key.describe()).isEqualTo("modelarmor.something-else-entirely (" + key.origin()
					+ ") is not a property of the Model Armor starter");
			assertThat(key.origin()).contains("mockProperties");
		});
	}

	@Test
	void keysBelowAMapPropertyAndKeysOutsideModelArmorAreNotReported() {
		MockEnvironment environment = new MockEnvironment().withProperty("modelarmor.labels.team", "x")
			.withProperty("modelarmorx.whatever", "x")
			.withProperty("spring.application.name", "app");

		assertThat(this.finder.find(environment)).isEmpty();
	}

	@Test
	void aKeySetInTwoSourcesIsReportedOnceWithTheOriginOfTheFirst() {
		MockEnvironment environment = new MockEnvironment().withProperty("modelarmor.screening.fail-opne", "true");
		environment.getPropertySources()
			.addLast(new MapPropertySource("second", Map.of("modelarmor.screening.fail-opne", "false")));

		assertThat(this.finder.find(environment)).hasSize(1);
	}

	@Test
	void theStartersOwnMetadataIsRead() {
		UnknownProperties fromMetadata = UnknownProperties.fromMetadata(getClass().getClassLoader());
		MockEnvironment environment = new MockEnvironment().withProperty("modelarmor.retry.deadline", "5s")
			.withProperty("modelarmor.screening.fail-open", "true")
			.withProperty("modelarmor.retry.dealine", "5s");

		assertThat(fromMetadata.find(environment)).extracting(Unknown::key).containsExactly("modelarmor.retry.dealine");
	}

	@Test
	void theGuardsOldNamesOfScreeningPropertiesAreUnknownAndPointToThem() {
		UnknownProperties fromMetadata = UnknownProperties.fromMetadata(getClass().getClassLoader());
		MockEnvironment environment = new MockEnvironment().withProperty("modelarmor.guard.fail-open", "true")
			.withProperty("modelarmor.guard.window.size", "4KB")
			.withProperty("modelarmor.guard.window.overlap", "1KB")
			.withProperty("modelarmor.guard.window.parallelism", "2")
			.withProperty("modelarmor.guard.window.max-windows", "9");

		assertThat(fromMetadata.find(environment)).extracting(Unknown::key, Unknown::suggestion)
			.containsExactlyInAnyOrder(tuple("modelarmor.guard.fail-open", "modelarmor.screening.fail-open"),
					tuple("modelarmor.guard.window.size", "modelarmor.screening.window.size"),
					tuple("modelarmor.guard.window.overlap", "modelarmor.screening.window.overlap"),
					tuple("modelarmor.guard.window.parallelism", "modelarmor.screening.window.parallelism"),
					tuple("modelarmor.guard.window.max-windows", "modelarmor.screening.window.max-windows"));
	}

	@Test
	void distanceCountsEdits() {
		assertThat(UnknownProperties.distance("deadline", "dealine")).isEqualTo(1);
		assertThat(UnknownProperties.distance("failopen", "failopne")).isEqualTo(2);
		assertThat(UnknownProperties.distance("", "abc")).isEqualTo(3);
		assertThat(UnknownProperties.distance("abc", "abc")).isZero();
	}

}
