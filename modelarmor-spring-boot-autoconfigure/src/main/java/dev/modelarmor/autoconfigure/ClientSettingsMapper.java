package dev.modelarmor.autoconfigure;

import java.util.List;

import dev.modelarmor.client.ModelArmorConfigurationException;
import dev.modelarmor.client.ModelArmorEndpoint;

import static dev.modelarmor.autoconfigure.PropertyValues.invalid;

/**
 * Maps where the templates are ({@code modelarmor.location}, {@code modelarmor.allowed-extra-locations},
 * {@code modelarmor.endpoint}, {@code modelarmor.template-id}) onto the client's endpoint, and holds the
 * locations Model Armor has, which a tenant's location is checked against too.
 */
final class ClientSettingsMapper {

	/** Model Armor's regions and multi-regions, as documented when this release was made. */
	static final List<String> LOCATIONS = List.of("us", "eu", "us-central1", "us-east1", "us-east4", "us-west1",
			"northamerica-northeast2", "europe-southwest1", "europe-west1", "europe-west2", "europe-west3",
			"europe-west4", "europe-west9", "asia-northeast1", "asia-northeast3", "asia-south1", "asia-southeast1",
			"australia-southeast2");

	private ClientSettingsMapper() {
	}

	/**
	 * The endpoint: {@code modelarmor.endpoint}, or the regional endpoint of the location.
	 * @param properties the bound properties
	 * @return the endpoint
	 * @throws ModelArmorConfigurationException naming the location or the endpoint when it is invalid
	 */
	static ModelArmorEndpoint endpoint(ModelArmorProperties properties) {
		ModelArmorEndpoint regional;
		try {
			// Checked even with an explicit endpoint: the location is also part of every request's path.
			regional = ModelArmorEndpoint.regional(properties.getLocation());
		}
		catch (IllegalArgumentException ex) {
			throw invalid("modelarmor.location", properties.getLocation(),
					"is not a location name; use a region such as us-central1, or us or eu");
		}
		String location = properties.getLocation();
		if (!isKnownLocation(location, properties.getAllowedExtraLocations())) {
			throw invalid("modelarmor.location", location, "is not a Model Armor location; use " + knownLocations());
		}
		String endpoint = properties.getEndpoint();
		if (endpoint == null) {
			return regional;
		}
		try {
			return ModelArmorEndpoint.of(endpoint);
		}
		catch (IllegalArgumentException ex) {
			throw invalid("modelarmor.endpoint", endpoint, ex.getMessage());
		}
	}

	/**
	 * Refuses a blank {@code modelarmor.template-id}, or one Model Armor would never accept.
	 * @param properties the bound properties
	 * @throws ModelArmorConfigurationException when it is blank or not a template id Model Armor accepts
	 */
	static void checkTemplateId(ModelArmorProperties properties) {
		String templateId = properties.getTemplateId();
		PropertyValues.requireNotBlank("modelarmor.template-id", templateId, "remove it or name a template");
		if (templateId != null && !templateId.isEmpty()) {
			TemplateIds.requireValid("modelarmor.template-id", templateId);
		}
	}

	/**
	 * Whether a location is one of Model Armor's or one the application allows besides them.
	 * @param location the location
	 * @param allowedExtraLocations {@code modelarmor.allowed-extra-locations}
	 * @return whether it may be used
	 */
	static boolean isKnownLocation(String location, List<String> allowedExtraLocations) {
		return LOCATIONS.contains(location) || allowedExtraLocations.contains(location);
	}

	/**
	 * What to use instead of an unknown location.
	 * @return {@code one of us, eu, ..., or add it to modelarmor.allowed-extra-locations}
	 */
	static String knownLocations() {
		return "one of " + String.join(", ", LOCATIONS) + ", or add it to modelarmor.allowed-extra-locations";
	}

}
