package dev.modelarmor.client.internal;

import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import dev.modelarmor.client.ModelArmorApiException;
import dev.modelarmor.client.ModelArmorException;
import dev.modelarmor.client.admin.Template;
import dev.modelarmor.client.admin.TemplateAlreadyExistsException;
import dev.modelarmor.client.admin.TemplateOperations;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpMethod;

/**
 * {@link TemplateOperations} over the REST API. Every change carries a fresh UUID4 {@code requestId}
 * that all attempts of the call share, which is what makes retrying it safe. Every call is addressed to
 * the endpoint itself, so that ids are encoded by {@link ApiCall}, whatever URI encoding the application's
 * {@code RestClient} uses.
 */
public final class RestTemplateOperations implements TemplateOperations {

	private static final String TEMPLATES = "/v1/projects/{project}/locations/{location}/templates";

	private static final String TEMPLATE = TEMPLATES + "/{template}";

	/**
	 * Far more pages than a location holds templates for; a server that keeps answering new page tokens
	 * past it is broken, and listing stops rather than calling it for ever.
	 */
	public static final int MAX_PAGES = 1_000;

	private final ApiCalls calls;

	private final URI endpoint;

	/** The path variables of the project and location whose templates these are. */
	private final Map<String, Object> parent;

	/**
	 * The template operations of one project and location over REST.
	 * @param calls the calls they are sent as
	 * @param endpoint where they go
	 * @param projectId the project
	 * @param location the location
	 */
	public RestTemplateOperations(ApiCalls calls, URI endpoint, String projectId, String location) {
		this.calls = calls;
		this.endpoint = endpoint;
		this.parent = Map.of("project", projectId, "location", location);
	}

	@Override
	public List<Template> list() {
		return list(null, null);
	}

	@Override
	public List<Template> list(@Nullable String filter, @Nullable String orderBy) {
		List<Template> templates = new ArrayList<>();
		Set<String> seenPageTokens = new HashSet<>();
		String pageToken = null;
		int pages = 0;
		do {
			if (++pages > MAX_PAGES) {
				throw new ModelArmorException("Model Armor answered more than " + MAX_PAGES
						+ " pages while listing templates, each with a new page token; listing stopped");
			}
			ApiCall call = ApiCall.of("templates.list", HttpMethod.GET, TEMPLATES, this.parent)
				.at(this.endpoint)
				.query("filter", filter)
				.query("orderBy", orderBy)
				.query("pageToken", pageToken);
			ListTemplatesResponse page = this.calls.send(call, ListTemplatesResponse.class, "a list of templates");
			if (page.templates() != null) {
				templates.addAll(page.templates());
			}
			String next = page.nextPageToken();
			pageToken = (next != null && !next.isEmpty()) ? next : null;
			if (pageToken != null && !seenPageTokens.add(pageToken)) {
				throw new ModelArmorException("Model Armor answered the same page token twice while listing templates");
			}
		}
		while (pageToken != null);
		return List.copyOf(templates);
	}

	@Override
	public Template get(String templateId) {
		return this.calls.send(
				ApiCall.of("templates.get", HttpMethod.GET, TEMPLATE, template(templateId)).at(this.endpoint),
				Template.class, "a template");
	}

	@Override
	public Template create(String templateId, Template template) {
		// a query value here, but the template's path from now on
		PathIds.require("templateId", templateId);
		ApiCall call = ApiCall.of("templates.create", HttpMethod.POST, TEMPLATES, this.parent)
			.at(this.endpoint)
			.query("templateId", templateId)
			.query("requestId", UUID.randomUUID())
			.body(AsReadJson.body(template.withoutOutputFields()));
		try {
			return this.calls.send(call, Template.class, "a template");
		}
		catch (ModelArmorApiException ex) {
			if (ex.statusCode() == 409) {
				throw new TemplateAlreadyExistsException(templateId, ex.earlierAttemptOutcomeUnknown(), ex);
			}
			throw ex;
		}
	}

	@Override
	public Template update(String templateId, Template template) {
		List<String> given = new ArrayList<>();
		addIfGiven(given, "labels", template.labels());
		addIfGiven(given, "filterConfig", template.filterConfig());
		addIfGiven(given, "templateMetadata", template.templateMetadata());
		if (given.isEmpty()) {
			throw new IllegalArgumentException("The template gives no field to update (labels, filterConfig or "
					+ "templateMetadata); pass an explicit update mask to overwrite every field");
		}
		return update(templateId, template, given);
	}

	static void addIfGiven(List<String> mask, String field, @Nullable Object value) {
		if (value != null) {
			mask.add(field);
		}
	}

	/** Field-mask paths as the {@code updateMask} query parameter carries them; none for an empty mask. */
	static @Nullable String updateMask(List<String> paths) {
		return paths.isEmpty() ? null : String.join(",", paths);
	}

	@Override
	public Template update(String templateId, Template template, List<String> updateMask) {
		ApiCall call = ApiCall.of("templates.update", HttpMethod.PATCH, TEMPLATE, template(templateId))
			.at(this.endpoint)
			.query("updateMask", updateMask(updateMask))
			.query("requestId", UUID.randomUUID())
			.body(AsReadJson.body(template.withoutOutputFields()));
		return this.calls.send(call, Template.class, "a template");
	}

	@Override
	public void delete(String templateId) {
		ApiCall call = ApiCall.of("templates.delete", HttpMethod.DELETE, TEMPLATE, template(templateId))
			.at(this.endpoint)
			.query("requestId", UUID.randomUUID());
		this.calls.send(call, Map.class, "an empty answer");
	}

	private Map<String, Object> template(String templateId) {
		PathIds.require("templateId", templateId);
		Map<String, Object> variables = new HashMap<>(this.parent);
		variables.put("template", templateId);
		return variables;
	}

}
