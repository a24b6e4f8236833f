package dev.modelarmor.screening;

import dev.modelarmor.client.TemplateReference;
import org.jspecify.annotations.Nullable;

/**
 * Chooses the template a call is screened with, from the call's context: one application, many tenants, each
 * screened with its own policy in its own location. Every integration asks it when the call names no template
 * of its own ({@code @ModelArmorGuarded}, the Spring AI advisor, tools, retrieved documents, media); the
 * starter publishes one from {@code modelarmor.tenants.<name>.template-id} / {@code .location}, and an
 * application's own bean of this type replaces it.
 *
 * <p>Return {@code null} for the default template ({@code modelarmor.template-id}); throw
 * {@link ModelArmorUnknownTenantException} to refuse the call, which is then blocked whatever fail-open says,
 * with one WARN line and a metric.
 */
@FunctionalInterface
public interface ModelArmorTemplateResolver {

	/** Always the default template. */
	ModelArmorTemplateResolver DEFAULT = (context) -> null;

	/**
	 * Chooses the template of a call.
	 * @param context who calls, for which tenant, with what attributes
	 * @return the template and its location, or {@code null} for the default template
	 * @throws ModelArmorUnknownTenantException to refuse the call
	 */
	@Nullable TemplateReference resolve(TemplateContext context);

}
