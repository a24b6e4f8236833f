package dev.modelarmor.web.internal;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * What the tenant header's values name: a request may carry the header several times, or one value with
 * commas (a proxy may join repeated headers so, as HTTP allows). Each value is stripped; empty and blank
 * values name nothing. No value left names no tenant (the default template, as without the header); one
 * name, however often repeated, names that tenant; two different names are ambiguous, and the request is
 * refused before any screening with a problem detail of its own.
 */
public final class TenantHeader {

	/** The problem type of a request whose tenant header names two different tenants. */
	public static final String AMBIGUOUS_TYPE = "urn:modelarmor:problem:ambiguous-tenant";

	private static final Log logger = LogFactory.getLog(TenantHeader.class);

	private static final byte[] AMBIGUOUS_PROBLEM = ("{\"type\":\"" + AMBIGUOUS_TYPE + "\","
			+ "\"title\":\"Ambiguous tenant\",\"status\":400,"
			+ "\"detail\":\"The tenant header names more than one tenant; send it once, with one tenant.\"}")
		.getBytes(StandardCharsets.UTF_8);

	private TenantHeader() {
	}

	/**
	 * Reads the header's values.
	 * @param values each occurrence of the header, in order, or {@code null} when it is absent
	 * @return what they name
	 */
	public static Tenant read(@Nullable List<String> values) {
		String named = null;
		if (values != null) {
			for (String value : values) {
				for (String part : value.split(",", -1)) {
					String name = part.strip();
					if (name.isEmpty() || name.equals(named)) {
						continue;
					}
					if (named != null) {
						return Tenant.AMBIGUOUS;
					}
					named = name;
				}
			}
		}
		return (named != null) ? new Tenant(named) : Tenant.NONE;
	}

	/**
	 * The body of the refusal of an ambiguous header, {@code application/problem+json}: a fixed text, never
	 * what the request sent.
	 * @return a new copy of the body
	 */
	static byte[] ambiguousProblem() {
		return AMBIGUOUS_PROBLEM.clone();
	}

	/**
	 * Says that a request was refused for its ambiguous header, without the values sent.
	 * @param header the header's name
	 */
	static void warnAmbiguous(String header) {
		logger.warn("Refused a request whose " + header + " header names more than one tenant, "
				+ "before any screening, nothing sent to Model Armor: outcome=ambiguous_tenant status=400");
	}

	/**
	 * The tenant a request names.
	 * @param name the tenant's name, or {@code null} for none
	 * @param ambiguous whether the header named two different tenants: the request is refused
	 */
	public record Tenant(@Nullable String name, boolean ambiguous) {

		static final Tenant NONE = new Tenant(null, false);

		static final Tenant AMBIGUOUS = new Tenant(null, true);

		Tenant(String name) {
			this(name, false);
		}

	}

}
