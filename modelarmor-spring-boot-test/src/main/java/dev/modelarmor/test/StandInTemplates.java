package dev.modelarmor.test;

import java.time.Instant;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The templates the stand-in knows: every template, until a test names the ones that exist. A template
 * read ({@code GET /v1/projects/{project}/locations/{location}/templates/{template}}) answers the template
 * (filters that describe the stand-in's default rules) or {@code 404 NOT_FOUND}, and a sanitize call to a
 * template that does not exist answers {@code 404 NOT_FOUND}, as Model Armor does.
 */
final class StandInTemplates {

	private static final Pattern READ = Pattern.compile("/v1/projects/([^/]+)/locations/([^/]+)/templates/([^/:]+)");

	/** Google's message for a resource that does not exist. */
	static final String NOT_FOUND = "Requested entity was not found.";

	/** When every template was created: a fixed instant, so answers do not change between requests. */
	private static final Instant CREATED = Instant.parse("2026-01-01T00:00:00Z");

	/** The ids of the templates that exist, or {@code null} when every template does. */
	private volatile @Nullable Set<String> existing;

	void exist(Set<String> templateIds) {
		this.existing = Set.copyOf(templateIds);
	}

	void reset() {
		this.existing = null;
	}

	boolean exists(String templateId) {
		Set<String> ids = this.existing;
		return ids == null || ids.contains(templateId);
	}

	/**
	 * Whether a request reads a template.
	 * @param method the HTTP method
	 * @param path the decoded path
	 * @return the path's parts (project, location, template), or {@code null} for any other request
	 */
	static @Nullable Matcher readPath(String method, String path) {
		Matcher matcher = READ.matcher(path);
		return ("GET".equals(method) && matcher.matches()) ? matcher : null;
	}

	/**
	 * The template JSON Model Armor sends for a read.
	 * @param path the matched read path
	 * @return UTF-8 JSON
	 */
	static byte[] json(Matcher path) {
		ObjectNode template = JsonMapper.shared().createObjectNode();
		template.put("name", "projects/" + path.group(1) + "/locations/" + path.group(2) + "/templates/" + path.group(3));
		template.put("createTime", CREATED.toString());
		template.put("updateTime", CREATED.toString());
		ObjectNode filters = template.putObject("filterConfig");
		filters.putObject("piAndJailbreakFilterSettings").put("filterEnforcement", "ENABLED");
		filters.putObject("maliciousUriFilterSettings").put("filterEnforcement", "ENABLED");
		filters.putObject("sdpSettings").putObject("basicConfig").put("filterEnforcement", "ENABLED");
		return JsonMapper.shared().writeValueAsBytes(template);
	}

}
