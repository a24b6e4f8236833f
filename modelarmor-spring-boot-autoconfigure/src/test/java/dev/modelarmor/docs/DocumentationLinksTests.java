package dev.modelarmor.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every relative link of the user documentation (README.md, docs/*.md, samples/*&#47;README.md) leads
 * somewhere: the file or folder exists and, when the link names a heading ({@code #anchor}), the target
 * has that heading. Sections move between the README and docs/ pages; a link left behind is a defect.
 */
class DocumentationLinksTests {

	/** {@code [text](target)}, the target without a title; images ({@code ![..](..)}) included. */
	private static final Pattern LINK = Pattern.compile("\\[[^\\]]*\\]\\(([^)\\s]+)\\)");

	private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*)$");

	@Test
	void everyRelativeLinkOfTheDocumentationResolves() throws IOException {
		Path root = projectRoot();
		List<Path> pages = documentationPages(root);
		assertThat(pages).as("the documentation pages")
			.contains(root.resolve("README.md"), root.resolve("docs/long-text.md"));
		List<String> broken = new ArrayList<>();
		for (Path page : pages) {
			broken.addAll(brokenLinks(page, root));
		}
		assertThat(broken).as("broken relative links").isEmpty();
	}

	@Test
	void aMissingFileAndAMissingHeadingAreReported(@TempDir Path root) throws IOException {
		Files.createDirectories(root.resolve("docs"));
		Files.writeString(root.resolve("docs/page.md"), "# A page\n\n## Its `first` section: done\n");
		Path readme = root.resolve("README.md");
		Files.writeString(readme, """
				# Title

				[fine](docs/page.md) [fine too](docs/page.md#its-first-section-done) [here](#title)
				[no file](docs/gone.md) [no heading](docs/page.md#second) [no local heading](#nowhere)
				[web](https://example.com/x.md) [mail](mailto:someone@example.com)

				```
				[inside a code block](docs/also-gone.md)
				```
				""");
		assertThat(brokenLinks(readme, root)).containsExactly("README.md: docs/gone.md (no such file)",
				"README.md: docs/page.md#second (no heading 'second')", "README.md: #nowhere (no heading 'nowhere')");
	}

	@Test
	void headingsBecomeGitHubAnchors() {
		assertThat(anchor("Annotation: `@ModelArmorGuarded`")).isEqualTo("annotation-modelarmorguarded");
		assertThat(anchor("How to build and test")).isEqualTo("how-to-build-and-test");
		assertThat(anchor("Failure behaviour: the fault matrix")).isEqualTo("failure-behaviour-the-fault-matrix");
	}

	private static List<String> brokenLinks(Path page, Path root) throws IOException {
		List<String> broken = new ArrayList<>();
		String name = root.relativize(page).toString().replace('\\', '/');
		for (String target : links(Files.readAllLines(page))) {
			if (target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {
				continue; // https:, mailto: and other absolute links
			}
			int hash = target.indexOf('#');
			String file = (hash >= 0) ? target.substring(0, hash) : target;
			String fragment = (hash >= 0) ? target.substring(hash + 1) : null;
			Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
			if (!resolved.startsWith(root) || !Files.exists(resolved)) {
				broken.add(name + ": " + target + " (no such file)");
			}
			else if (fragment != null && !anchors(resolved).contains(fragment)) {
				broken.add(name + ": " + target + " (no heading '" + fragment + "')");
			}
		}
		return broken;
	}

	/** The link targets outside fenced code blocks. */
	private static List<String> links(List<String> lines) {
		List<String> targets = new ArrayList<>();
		boolean inCode = false;
		for (String line : lines) {
			if (line.stripLeading().startsWith("```")) {
				inCode = !inCode;
				continue;
			}
			if (inCode) {
				continue;
			}
			Matcher link = LINK.matcher(line);
			while (link.find()) {
				targets.add(link.group(1));
			}
		}
		return targets;
	}

	private static Set<String> anchors(Path file) {
		Set<String> anchors = new HashSet<>();
		if (Files.isDirectory(file)) {
			return anchors;
		}
		try {
			boolean inCode = false;
			for (String line : Files.readAllLines(file)) {
				if (line.stripLeading().startsWith("```")) {
					inCode = !inCode;
				}
				Matcher heading = HEADING.matcher(line);
				if (!inCode && heading.matches()) {
					anchors.add(anchor(heading.group(1)));
				}
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return anchors;
	}

	/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
	private static String anchor(String heading) {
		return heading.strip()
			.toLowerCase(Locale.ROOT)
			.replaceAll("[^\\p{L}\\p{N} _-]", "")
			.replace(' ', '-');
	}

	private static List<Path> documentationPages(Path root) throws IOException {
		List<Path> pages = new ArrayList<>();
		pages.add(root.resolve("README.md"));
		try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
			docs.filter((path) -> path.toString().endsWith(".md")).sorted().forEach(pages::add);
		}
		try (Stream<Path> samples = Files.list(root.resolve("samples"))) {
			samples.map((sample) -> sample.resolve("README.md")).filter(Files::exists).sorted().forEach(pages::add);
		}
		return pages;
	}

	private static Path projectRoot() {
		Path directory = Path.of("").toAbsolutePath();
		while (!Files.exists(directory.resolve("README.md"))
				|| !Files.exists(directory.resolve("modelarmor-spring-boot-autoconfigure"))) {
			directory = directory.getParent();
			assertThat(directory).as("the project's README.md").isNotNull();
		}
		return directory;
	}

}
