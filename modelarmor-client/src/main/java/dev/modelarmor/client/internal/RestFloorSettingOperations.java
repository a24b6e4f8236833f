package dev.modelarmor.client.internal;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.modelarmor.client.FloorSettingName;
import dev.modelarmor.client.admin.FloorSetting;
import dev.modelarmor.client.admin.FloorSettingOperations;

import org.springframework.http.HttpMethod;

/**
 * {@link FloorSettingOperations} over the REST API, at the endpoint that serves floor settings.
 */
public final class RestFloorSettingOperations implements FloorSettingOperations {

	private static final String FLOOR_SETTING = "/v1/{parentType}/{parentId}/locations/{location}/floorSetting";

	private final ApiCalls calls;

	private final URI endpoint;

	/**
	 * The floor-setting operations over REST.
	 * @param calls the calls they are sent as
	 * @param endpoint where they go
	 */
	public RestFloorSettingOperations(ApiCalls calls, URI endpoint) {
		this.calls = calls;
		this.endpoint = endpoint;
	}

	@Override
	public FloorSetting get(FloorSettingName name) {
		return this.calls.send(call("floor_settings.get", HttpMethod.GET, name), FloorSetting.class,
				"a floor setting");
	}

	@Override
	public FloorSetting update(FloorSettingName name, FloorSetting floorSetting) {
		List<String> given = new ArrayList<>();
		RestTemplateOperations.addIfGiven(given, "filterConfig", floorSetting.filterConfig());
		RestTemplateOperations.addIfGiven(given, "enableFloorSettingEnforcement",
				floorSetting.enableFloorSettingEnforcement());
		RestTemplateOperations.addIfGiven(given, "integratedServices", floorSetting.integratedServices());
		RestTemplateOperations.addIfGiven(given, "aiPlatformFloorSetting", floorSetting.aiPlatformFloorSetting());
		RestTemplateOperations.addIfGiven(given, "googleMcpServerFloorSetting",
				floorSetting.googleMcpServerFloorSetting());
		RestTemplateOperations.addIfGiven(given, "floorSettingMetadata", floorSetting.floorSettingMetadata());
		if (given.isEmpty()) {
			throw new IllegalArgumentException("The floor setting gives no field to update; pass an explicit update "
					+ "mask to overwrite every field");
		}
		return update(name, floorSetting, given);
	}

	@Override
	public FloorSetting update(FloorSettingName name, FloorSetting floorSetting, List<String> updateMask) {
		// The API has no requestId for floor settings, so an update is never retried.
		ApiCall call = call("floor_settings.update", HttpMethod.PATCH, name).notRetryable()
			.query("updateMask", RestTemplateOperations.updateMask(updateMask))
			.body(AsReadJson.body(floorSetting.withoutOutputFields()));
		return this.calls.send(call, FloorSetting.class, "a floor setting");
	}

	private ApiCall call(String operation, HttpMethod method, FloorSettingName name) {
		return ApiCall.of(operation, method, FLOOR_SETTING, Map.of("parentType", name.parentType(), "parentId", name.parentId(),
				"location", name.location())).at(this.endpoint);
	}

}
