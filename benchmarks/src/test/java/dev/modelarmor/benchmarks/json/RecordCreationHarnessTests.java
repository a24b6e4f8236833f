package dev.modelarmor.benchmarks.json;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import dev.modelarmor.benchmarks.jmh.LoopbackServer;
import dev.modelarmor.client.FilterMatchState;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.ObjectReader;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The harness measures what it claims: both of its readers read every answer it times into the same,
 * complete public records; and the benchmarks module adds no class to a package of the starter.
 */
class RecordCreationHarnessTests {

	@Test
	void bothReadersReadTheTimedAnswersAlike() throws Exception {
		ObjectReader alone = RecordCreationHarness.wireMapping().build().readerFor(RecordCreationHarness.Answer.class);
		ObjectReader withConstructors = RecordCreationHarness.wireMapping()
			.addModule(RecordCreationHarness.constructorsByReflection())
			.build()
			.readerFor(RecordCreationHarness.Answer.class);
		for (byte[] answer : List.of(LoopbackServer.ANSWER, RecordCreationHarness.FULL_ANSWER)) {
			RecordCreationHarness.Answer expected = alone.readValue(answer);
			RecordCreationHarness.Answer read = withConstructors.readValue(answer);
			assertThat(read).isEqualTo(expected);
			assertThat(read.sanitizationResult()).isNotNull();
		}
		RecordCreationHarness.Answer full = withConstructors.readValue(RecordCreationHarness.FULL_ANSWER);
		assertThat(full.sanitizationResult().filterMatchState()).isEqualTo(FilterMatchState.MATCH_FOUND);
		assertThat(full.sanitizationResult().filterResults()).hasSize(7);
	}

	@Test
	void theBenchmarksAddNoClassToAStarterPackage() throws URISyntaxException, java.io.IOException {
		Path classes = Path.of(RecordCreationHarness.class.getProtectionDomain().getCodeSource().getLocation().toURI());
		assertThat(classes.resolve("dev/modelarmor/benchmarks")).isDirectory();
		try (Stream<Path> files = Files.walk(classes.resolve("dev/modelarmor"))) {
			assertThat(files.filter((file) -> file.toString().endsWith(".class"))
				.map((file) -> classes.relativize(file).toString().replace('\\', '/')))
				.isNotEmpty()
				.allMatch((name) -> name.startsWith("dev/modelarmor/benchmarks/"));
		}
	}

}
