package dev.modelarmor.autoconfigure;

import java.util.LinkedHashMap;
import java.util.Map;

import dev.modelarmor.screening.UnknownTenant;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties of tenants: each tenant's template and its location
 * ({@code modelarmor.tenants.<name>.*}), and how a request names its tenant ({@code modelarmor.tenant.*}).
 */
@ConfigurationProperties("modelarmor")
public class ModelArmorTenantProperties {

	/**
	 * Each tenant's template and the location it lives in, by the tenant's name.
	 */
	private final Map<String, Tenant> tenants = new LinkedHashMap<>();

	/**
	 * How a request names its tenant, and what a tenant that is not declared does.
	 */
	private final TenantRequest tenant = new TenantRequest();

	public Map<String, Tenant> getTenants() {
		return this.tenants;
	}

	public TenantRequest getTenant() {
		return this.tenant;
	}

	/**
	 * One tenant's template.
	 */
	public static class Tenant {

		/**
		 * Id of the tenant's template.
		 */
		private @Nullable String templateId;

		/**
		 * Location of the tenant's template (a region such as europe-west4, or us / eu): calls go to that
		 * location, and to no other.
		 */
		private @Nullable String location;

		public @Nullable String getTemplateId() {
			return this.templateId;
		}

		public void setTemplateId(@Nullable String templateId) {
			this.templateId = templateId;
		}

		public @Nullable String getLocation() {
			return this.location;
		}

		public void setLocation(@Nullable String location) {
			this.location = location;
		}

	}

	/**
	 * How a request names its tenant.
	 */
	public static class TenantRequest {

		/**
		 * Name of the HTTP header that names a request's tenant, read by a servlet filter or a WebFlux web
		 * filter. Unset: no filter; the tenant comes from the advisor or tool context, or from an application's
		 * own ModelArmorTemplateResolver.
		 */
		private @Nullable String header;

		/**
		 * What a call whose tenant is not declared does: refuse it (blocked whatever fail-open says), or screen
		 * it with the default template. A call that names no tenant uses the default template.
		 */
		private UnknownTenant unknown = UnknownTenant.REFUSE;

		public @Nullable String getHeader() {
			return this.header;
		}

		public void setHeader(@Nullable String header) {
			this.header = header;
		}

		public UnknownTenant getUnknown() {
			return this.unknown;
		}

		public void setUnknown(UnknownTenant unknown) {
			this.unknown = unknown;
		}

	}

}
