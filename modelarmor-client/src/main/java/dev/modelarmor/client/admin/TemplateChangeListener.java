package dev.modelarmor.client.admin;

/**
 * Told when a template may have changed through {@link TemplateOperations}: after every create, update or
 * delete call, also one that failed, since a call whose answer was lost may still have changed the
 * template. What depends on a template's filters, such as cached verdicts, listens to drop what it holds.
 * Changes made elsewhere (the console, {@code gcloud}, another client) are not seen.
 */
@FunctionalInterface
public interface TemplateChangeListener {

	/** Listens to nothing. */
	TemplateChangeListener NONE = (templateName) -> {
	};

	/**
	 * A template may have changed.
	 * @param templateName the template's full resource name,
	 * {@code projects/{project}/locations/{location}/templates/{template}}
	 */
	void templateChanged(String templateName);

}
