package dev.modelarmor.screening;

/**
 * What a call whose tenant has no template declared does ({@code modelarmor.tenant.unknown}).
 */
public enum UnknownTenant {

	/** Refuse the call: blocked whatever fail-open says, one WARN line and a metric. */
	REFUSE,

	/** Screen it with the default template ({@code modelarmor.template-id}). */
	DEFAULT_TEMPLATE

}
