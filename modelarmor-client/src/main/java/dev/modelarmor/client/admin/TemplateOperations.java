package dev.modelarmor.client.admin;

import java.util.List;

import dev.modelarmor.client.ModelArmorApiException;
import org.jspecify.annotations.Nullable;

/**
 * Manages the Model Armor templates of the client's project and location. Reads are retried with
 * Google's retry strategy; create, update and delete carry a {@code requestId} that every attempt of
 * one call reuses (Model Armor de-duplicates by it), so they are retried too.
 */
public interface TemplateOperations {

	/**
	 * All templates, every page read.
	 * @return the templates
	 */
	List<Template> list();

	/**
	 * The templates that match a filter, in an order, every page read.
	 * @param filter a filter expression as the API defines it (e.g. {@code labels.env="prod"}), or {@code null}
	 * @param orderBy an ordering such as {@code name desc}, or {@code null}
	 * @return the templates
	 */
	List<Template> list(@Nullable String filter, @Nullable String orderBy);

	/**
	 * One template.
	 * @param templateId the template id
	 * @return the template
	 * @throws ModelArmorApiException with status 404 when there is none
	 */
	Template get(String templateId);

	/**
	 * Creates a template.
	 * @param templateId the id of the new template
	 * @param template its content; name and times are ignored
	 * @return the template as created
	 * @throws TemplateAlreadyExistsException when the id is taken, saying whether an earlier attempt of
	 * this same call may have created it
	 */
	Template create(String templateId, Template template);

	/**
	 * Updates the fields that {@code template} gives (its non-null {@code labels}, {@code filterConfig},
	 * {@code templateMetadata}); the others keep their values.
	 * @param templateId the template id
	 * @param template the new values
	 * @return the template as updated
	 */
	Template update(String templateId, Template template);

	/**
	 * Updates exactly the fields named by a field mask.
	 * @param templateId the template id
	 * @param template the new values
	 * @param updateMask field paths such as {@code filterConfig.raiSettings}; empty overwrites every field
	 * @return the template as updated
	 */
	Template update(String templateId, Template template, List<String> updateMask);

	/**
	 * Deletes a template.
	 * @param templateId the template id
	 */
	void delete(String templateId);

}
