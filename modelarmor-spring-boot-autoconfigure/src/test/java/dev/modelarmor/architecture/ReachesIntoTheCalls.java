package dev.modelarmor.architecture;

import dev.modelarmor.client.internal.ModelArmorJson;

/**
 * Reaches past {@code ModelArmorTemplate} to the client's calls: what the architecture tests refuse outside the
 * client.
 */
public final class ReachesIntoTheCalls {

	private ReachesIntoTheCalls() {
	}

	/**
	 * Writes a value as the client's calls would.
	 * @param value the value
	 * @return its JSON
	 */
	public static String json(Object value) {
		return ModelArmorJson.mapper().writeValueAsString(value);
	}

}
