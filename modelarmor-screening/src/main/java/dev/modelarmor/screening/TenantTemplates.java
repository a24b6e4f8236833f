package dev.modelarmor.screening;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

import dev.modelarmor.client.TemplateReference;
import org.jspecify.annotations.Nullable;

/**
 * The declarative {@link ModelArmorTemplateResolver}: each tenant's template and its location, as
 * {@code modelarmor.tenants.<name>.template-id} and {@code .location} declare them. A call that names no
 * tenant is screened with the default template; one whose tenant is not declared is refused, or with
 * {@link UnknownTenant#DEFAULT_TEMPLATE} screened with the default template. Published as the bean
 * {@code modelArmorTenants}, so that a {@code @ModelArmorGuarded} template can name it in SpEL:
 * {@code template = "#{@modelArmorTenants.templateFor(#tenant)}"}.
 */
public final class TenantTemplates implements ModelArmorTemplateResolver {

	private final Map<String, TemplateReference> tenants;

	private final UnknownTenant unknown;

	/**
	 * Creates the templates of the tenants.
	 * @param tenants each tenant's template, by the tenant's name
	 * @param unknown what a call whose tenant is not declared does
	 */
	public TenantTemplates(Map<String, TemplateReference> tenants, UnknownTenant unknown) {
		// in the order declared: the health check reads the first tenant template of each location
		this.tenants = Collections.unmodifiableMap(new LinkedHashMap<>(tenants));
		this.unknown = Objects.requireNonNull(unknown, "unknown must not be null");
	}

	/**
	 * The template of a tenant.
	 * @param tenant the tenant's name, or {@code null} for none
	 * @return its template, or {@code null} for the default template (no tenant, or an unknown one with
	 * {@link UnknownTenant#DEFAULT_TEMPLATE})
	 * @throws ModelArmorUnknownTenantException for a tenant that is not declared, with {@link UnknownTenant#REFUSE}
	 */
	public @Nullable TemplateReference templateFor(@Nullable String tenant) {
		if (tenant == null || tenant.isEmpty()) {
			return null;
		}
		TemplateReference template = this.tenants.get(tenant);
		if (template == null && this.unknown == UnknownTenant.REFUSE) {
			throw new ModelArmorUnknownTenantException();
		}
		return template;
	}

	@Override
	public @Nullable TemplateReference resolve(TemplateContext context) {
		return templateFor(context.tenant());
	}

	/**
	 * The declared tenants.
	 * @return each tenant's template, by name, in the order declared
	 */
	public Map<String, TemplateReference> tenants() {
		return this.tenants;
	}

	/**
	 * What a call whose tenant is not declared does.
	 * @return the policy
	 */
	public UnknownTenant unknown() {
		return this.unknown;
	}

}
