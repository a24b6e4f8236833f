package dev.modelarmor.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.core.io.ClassPathResource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/properties.md, the complete property reference, against the generated configuration metadata: every
 * property is listed, none that the metadata does not know, each default as the metadata states it, and each
 * with a meaning.
 */
class PropertiesReferenceTests {

	/** A row of a property table: {@code | `name` | default | meaning |}. */
	private static final Pattern ROW = Pattern.compile("^\\| `([a-z][a-z0-9.-]*)` \\| (.*?) \\| (.*) \\|$");

	private static final Map<String, JsonNode> metadata = metadata();

	private static final Map<String, String[]> documented = documented();

	@Test
	void everyPropertyOfTheMetadataIsDocumentedAndNoOther() {
		assertThat(documented.keySet()).as("docs/properties.md").containsExactlyInAnyOrderElementsOf(metadata.keySet());
	}

	@Test
	void everyDefaultIsTheMetadatasDefault() {
		List<String> wrong = new ArrayList<>();
		metadata.forEach((name, property) -> {
			String[] row = documented.get(name);
			if (row == null) {
				return;
			}
			String cell = row[0];
			if (property.has("defaultValue")) {
				String expected = "`" + property.path("defaultValue").asString() + "`";
				if (!cell.equals(expected) && !cell.startsWith(expected + ":") && !cell.startsWith(expected + " ")) {
					wrong.add(name + ": documented " + cell + ", metadata " + expected);
				}
			}
			else if (cell.matches("`[^`]*`") && !cell.matches("`(modelarmor|spring)\\.[a-z0-9.-]+`")) {
				wrong.add(name + ": documented " + cell + ", metadata has no default");
			}
		});
		assertThat(wrong).as("defaults in docs/properties.md").isEmpty();
	}

	@Test
	void everyPropertyHasAMeaningAndNoneIsDeprecated() {
		metadata.forEach((name, property) -> {
			assertThat(property.has("deprecation")).as(name + " deprecated").isFalse();
			assertThat(documented.get(name)[1]).as(name).doesNotContain("Deprecated").isNotBlank();
		});
	}

	@Test
	void aRowIsReadAsNameDefaultAndMeaning() {
		Matcher row = ROW.matcher("| `modelarmor.retry.deadline` | `60s` | total time |");
		assertThat(row.matches()).isTrue();
		assertThat(row.group(1)).isEqualTo("modelarmor.retry.deadline");
		assertThat(row.group(2)).isEqualTo("`60s`");
		assertThat(row.group(3)).isEqualTo("total time");
	}

	private static Map<String, String[]> documented() {
		Path directory = Path.of("").toAbsolutePath();
		while (!Files.exists(directory.resolve("docs/properties.md"))) {
			directory = directory.getParent();
			assertThat(directory).as("the project's docs/properties.md").isNotNull();
		}
		try {
			Map<String, String[]> rows = new LinkedHashMap<>();
			for (String line : Files.readAllLines(directory.resolve("docs/properties.md"))) {
				Matcher row = ROW.matcher(line);
				if (row.matches()) {
					assertThat(rows.put(row.group(1), new String[] { row.group(2), row.group(3) }))
						.as(row.group(1) + " documented once")
						.isNull();
				}
			}
			return rows;
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static Map<String, JsonNode> metadata() {
		try (InputStream in = new ClassPathResource("META-INF/spring-configuration-metadata.json").getInputStream()) {
			Map<String, JsonNode> byName = new LinkedHashMap<>();
			JsonMapper.shared().readTree(in).path("properties").forEach((p) -> byName.put(p.path("name").asString(), p));
			return byName;
		}
		catch (IOException ex) {
			throw new IllegalStateException("configuration metadata was not generated", ex);
		}
	}

}
