package dev.modelarmor.client;

import java.util.List;
import java.util.Objects;

/**
 * A virus that the virus scan identified.
 *
 * @param vendor the vendor that identified it; empty when absent
 * @param names the names of the virus; empty when absent
 * @param threatType the kind of threat; {@code THREAT_TYPE_UNSPECIFIED} when absent
 */
public record VirusDetail(String vendor, List<String> names, ThreatType threatType) {

	/**
	 * Creates a virus detail.
	 * @param vendor the vendor that identified it
	 * @param names the names of the virus
	 * @param threatType the kind of threat
	 */
	public VirusDetail {
		// Jackson passes null for an absent field.
		vendor = Objects.requireNonNullElse(vendor, "");
		names = Defaults.list(names);
		threatType = Objects.requireNonNullElse(threatType, ThreatType.THREAT_TYPE_UNSPECIFIED);
	}

}
