package dev.modelarmor.langchain4j;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The tenant snippet of docs/langchain4j.md is {@code com.example.travel.TenantChat} as it compiles here, word for
 * word (indented with spaces there, tabs here).
 */
class DocsSnippetTests {

	@Test
	void theTenantSnippetIsTheClassThatCompiles() throws Exception {
		String compiled = Files.readString(Path.of("src/test/java/com/example/travel/TenantChat.java"))
			.replace("\t", "    ");
		String docs = Files.readString(Path.of("../docs/langchain4j.md"));
		assertThat(docs).contains("```java\n" + compiled + "```\n");
	}

}
