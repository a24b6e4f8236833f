import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Turns every Java and Kotlin snippet of README.md and docs/*.md into a source file of one test project, so
 * that one compilation checks them all (.ci/doc-snippets-check). Run as {@code java .ci/DocSnippets.java
 * ROOT SOURCES MAP}: writes SOURCES/java and SOURCES/kotlin, and MAP, where each line names a generated file
 * and the page line of each of its lines; {@code java .ci/DocSnippets.java --explain MAP LOG} then says each
 * compiler error of the build's LOG as the page and line of the snippet it is in.
 *
 * <p>The conventions (docs/building.md, "Snippets"):
 * <ul>
 * <li>A snippet compiles as written: leading {@code import} lines, then either whole types (classes,
 * interfaces, records; Kotlin functions and properties too) or, for Java, the members of a class (a
 * {@code @Bean} method, a field), which are compiled inside a class of their own.</li>
 * <li>A page's imports may stand once at its top, in a block right after {@code <!-- snippet-imports -->}:
 * they are added to each snippet of the page.</li>
 * <li>The snippets of a page are in one package ({@code snippets.<page>}), with a {@code DemoApplication}
 * as start.spring.io makes it, so one snippet may use another's types.</li>
 * <li>A block right after {@code <!-- illustrative -->} is not compiled; keep them rare. One right after a
 * {@code <!-- readme-… -->} or {@code <!-- kotlin-app:… -->} marker is built into an application of its own,
 * and its tests run: by .ci/fresh-app-check, and by .ci/doc-snippets-check as docs/kotlin.md's build.</li>
 * </ul>
 */
public class DocSnippets {

	private static final Pattern FENCE = Pattern.compile("^```(\\w*)\\s*$");

	private static final Pattern JAVA_TYPE = Pattern.compile(
			"^(@\\w+(\\(.*\\))?\\s+)*((public|abstract|final|sealed|non-sealed|static)\\s+)*(class|interface|record|enum|@interface)\\s+(\\w+).*");

	private static final Pattern PUBLIC_TYPE = Pattern.compile(
			"^((abstract|final|sealed|non-sealed|static)\\s+)*public\\s+((abstract|final|sealed|non-sealed|static)\\s+)*(class|interface|record|enum|@interface)\\s+(\\w+).*");

	record Block(String page, int line, String language, List<String> lines, String marker) {
	}

	public static void main(String[] args) throws IOException {
		if (args[0].equals("--explain")) {
			explain(Path.of(args[1]), Path.of(args[2]));
			return;
		}
		Path root = Path.of(args[0]);
		Path out = Path.of(args[1]);
		Path mapFile = Path.of(args[2]);
		List<Path> pages = new ArrayList<>();
		pages.add(root.resolve("README.md"));
		try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
			docs.filter((p) -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
		}
		StringBuilder map = new StringBuilder();
		int compiled = 0;
		int illustrative = 0;
		int freshApp = 0;
		for (Path page : pages) {
			String name = root.relativize(page).toString();
			List<Block> blocks = blocks(name, Files.readAllLines(page));
			List<String> pageImports = new ArrayList<>();
			List<Integer> pageImportLines = new ArrayList<>();
			for (Block block : blocks) {
				if (block.marker().equals("<!-- snippet-imports -->")) {
					for (int i = 0; i < block.lines().size(); i++) {
						if (!block.lines().get(i).isBlank()) {
							pageImports.add(block.lines().get(i));
							pageImportLines.add(block.line() + 1 + i);
						}
					}
				}
			}
			String pkg = "snippets." + packageName(name);
			boolean any = false;
			for (Block block : blocks) {
				if (!block.language().equals("java") && !block.language().equals("kotlin")) {
					continue;
				}
				if (block.marker().equals("<!-- illustrative -->")) {
					illustrative++;
					continue;
				}
				if (block.marker().equals("<!-- snippet-imports -->")) {
					continue;
				}
				if (block.marker().startsWith("<!-- readme-") || block.marker().startsWith("<!-- kotlin-app:")) {
					freshApp++;
					continue;
				}
				any = true;
				compiled++;
				Source source = block.language().equals("java") ? java(block, pkg, pageImports, pageImportLines)
						: kotlin(block, pkg, pageImports, pageImportLines);
				Path file = out.resolve(block.language()).resolve(pkg.replace('.', '/')).resolve(source.fileName());
				Files.createDirectories(file.getParent());
				if (Files.exists(file)) {
					throw new IllegalStateException(name + ": the " + block.language() + " snippet at line "
							+ block.line() + " declares " + source.fileName()
							+ " as another snippet of the page does: rename one");
				}
				Files.write(file, source.text());
				map.append(file.toAbsolutePath()).append('\t').append(name).append('\t').append(block.line());
				source.pageLines().forEach((l) -> map.append('\t').append(l));
				map.append('\n');
			}
			if (any) {
				Path app = out.resolve("java").resolve(pkg.replace('.', '/')).resolve("DemoApplication.java");
				Files.createDirectories(app.getParent());
				if (!Files.exists(app)) {
					Files.writeString(app, "package " + pkg + ";\n\n"
							+ "@org.springframework.boot.autoconfigure.SpringBootApplication\n"
							+ "public class DemoApplication {\n\n\tpublic static void main(String[] args) {\n"
							+ "\t\torg.springframework.boot.SpringApplication.run(DemoApplication.class, args);\n"
							+ "\t}\n\n}\n");
				}
			}
		}
		Files.writeString(mapFile, map.toString());
		System.out.println("doc-snippets-check: " + compiled + " snippets to compile, " + freshApp
				+ " built into the applications of .ci/fresh-app-check and docs/kotlin.md, " + illustrative
				+ " marked illustrative");
	}

	/** Each compiler error in a generated file, said as the page's line (javac's and kotlinc's formats). */
	private static void explain(Path mapFile, Path log) throws IOException {
		java.util.Map<String, String[]> map = new java.util.HashMap<>();
		for (String line : Files.readAllLines(mapFile)) {
			String[] fields = line.split("\t");
			map.put(fields[0], fields);
		}
		Pattern error = Pattern.compile("(?:file://)?(/\\S+\\.(?:java|kt))(?::\\[|:)(\\d+)[,:](\\d+)\\]?:?\\s*(.*)");
		java.util.Set<String> said = new java.util.LinkedHashSet<>();
		List<String> logLines = Files.readAllLines(log);
		for (int n = 0; n < logLines.size(); n++) {
			String line = logLines.get(n);
			if (!line.contains("[ERROR]")) {
				continue;
			}
			String next = (n + 1 < logLines.size()) ? logLines.get(n + 1) : "";
			String symbol = next.contains("symbol:") ? " (" + next.replaceFirst(".*symbol:\\s*", "").strip() + ")" : "";
			Matcher matcher = error.matcher(line);
			if (!matcher.find()) {
				continue;
			}
			String[] fields = map.get(matcher.group(1));
			if (fields == null) {
				continue;
			}
			int generated = Integer.parseInt(matcher.group(2));
			int fence = Integer.parseInt(fields[2]);
			int pageLine = (generated + 2 < fields.length) ? Integer.parseInt(fields[generated + 2]) : 0;
			said.add("doc-snippets-check: " + fields[1] + ":" + ((pageLine > 0) ? pageLine : fence)
					+ ": in the " + (fields[0].endsWith(".kt") ? "kotlin" : "java") + " snippet at line " + fence + ": "
					+ matcher.group(4) + symbol);
		}
		said.forEach(System.out::println);
	}

	record Source(String fileName, List<String> text, List<Integer> pageLines) {
	}

	private static Source java(Block block, String pkg, List<String> pageImports, List<Integer> pageImportLines) {
		List<String> text = new ArrayList<>();
		List<Integer> lines = new ArrayList<>();
		if (block.lines().stream().noneMatch((l) -> l.startsWith("package "))) {
			text.add("package " + pkg + ";");
			lines.add(0);
		}
		int i = addImports(block, text, lines, pageImports, pageImportLines);
		// members (a method, a field) at the top level are wrapped in a class, with any type beside them
		boolean members = false;
		String publicType = null;
		int depth = 0;
		boolean continued = false;
		for (int j = i; j < block.lines().size(); j++) {
			String line = block.lines().get(j).strip();
			boolean code = !line.isEmpty() && !line.startsWith("//") && !line.startsWith("/*") && !line.startsWith("*");
			if (depth == 0 && code && !continued && !line.startsWith("@")) {
				if (JAVA_TYPE.matcher(line).matches()) {
					Matcher matcher = PUBLIC_TYPE.matcher(line);
					if (matcher.matches() && publicType == null) {
						publicType = matcher.group(6);
					}
				}
				else {
					members = true;
				}
			}
			String bare = line.replaceAll("\"([^\"\\\\]|\\\\.)*\"", "\"\"").replaceAll("//.*", "");
			for (char c : bare.toCharArray()) {
				depth += (c == '{') ? 1 : (c == '}') ? -1 : 0;
			}
			if (code && !line.startsWith("@")) {
				continued = depth == 0 && !(bare.endsWith("{") || bare.endsWith("}") || bare.endsWith(";"));
			}
		}
		boolean types = !members;
		String wrapper = "Snippet_L" + block.line();
		if (!types) {
			text.add("@SuppressWarnings(\"unused\") class " + wrapper + " {");
			lines.add(0);
		}
		for (int j = i; j < block.lines().size(); j++) {
			text.add(block.lines().get(j));
			lines.add(block.line() + 1 + j);
		}
		if (!types) {
			text.add("}");
			lines.add(0);
		}
		return new Source(((types && publicType != null) ? publicType : wrapper) + ".java", text, lines);
	}

	private static Source kotlin(Block block, String pkg, List<String> pageImports, List<Integer> pageImportLines) {
		List<String> text = new ArrayList<>();
		List<Integer> lines = new ArrayList<>();
		boolean ownPackage = block.lines().stream().anyMatch((l) -> l.startsWith("package "));
		if (!ownPackage) {
			text.add("package " + pkg);
			lines.add(0);
		}
		int i = addImports(block, text, lines, pageImports, pageImportLines);
		for (int j = i; j < block.lines().size(); j++) {
			text.add(block.lines().get(j));
			lines.add(block.line() + 1 + j);
		}
		return new Source("Snippet_L" + block.line() + ".kt", text, lines);
	}

	/** The page's imports, then the snippet's own leading ones (and its package line, in Kotlin); the index after. */
	private static int addImports(Block block, List<String> text, List<Integer> lines, List<String> pageImports,
			List<Integer> pageImportLines) {
		int i = 0;
		while (i < block.lines().size()
				&& (block.lines().get(i).startsWith("package ") || block.lines().get(i).isBlank())) {
			text.add(block.lines().get(i));
			lines.add(block.line() + 1 + i);
			i++;
		}
		for (int k = 0; k < pageImports.size(); k++) {
			String line = pageImports.get(k);
			text.add(block.language().equals("kotlin") ? line.replaceAll(";\\s*$", "") : line);
			lines.add(pageImportLines.get(k));
		}
		while (i < block.lines().size()
				&& (block.lines().get(i).startsWith("import ") || block.lines().get(i).isBlank())) {
			text.add(block.lines().get(i));
			lines.add(block.line() + 1 + i);
			i++;
		}
		return i;
	}

	private static List<Block> blocks(String page, List<String> lines) {
		List<Block> blocks = new ArrayList<>();
		for (int i = 0; i < lines.size(); i++) {
			Matcher fence = FENCE.matcher(lines.get(i));
			if (!fence.matches()) {
				continue;
			}
			int start = i;
			List<String> body = new ArrayList<>();
			for (i = i + 1; i < lines.size() && !lines.get(i).startsWith("```"); i++) {
				body.add(lines.get(i));
			}
			String marker = "";
			for (int k = start - 1; k >= 0; k--) {
				if (!lines.get(k).isBlank()) {
					marker = lines.get(k).strip();
					break;
				}
			}
			blocks.add(new Block(page, start + 1, fence.group(1).toLowerCase(Locale.ROOT), body, marker));
		}
		return blocks;
	}

	private static String packageName(String page) {
		String name = page.replaceFirst("^docs/", "").replaceFirst("\\.md$", "").toLowerCase(Locale.ROOT);
		return name.replaceAll("[^a-z0-9]+", "_");
	}

}
