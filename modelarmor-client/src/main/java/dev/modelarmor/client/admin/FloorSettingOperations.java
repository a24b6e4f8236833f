package dev.modelarmor.client.admin;

import java.util.List;

import dev.modelarmor.client.FloorSettingName;

/**
 * Reads and changes Model Armor floor settings: the minimum screening a project, folder or organization
 * enforces. Reads are retried; an update carries no request id in the API, so it is never retried.
 */
public interface FloorSettingOperations {

	/**
	 * A floor setting.
	 * @param name whose floor setting
	 * @return the floor setting
	 */
	FloorSetting get(FloorSettingName name);

	/**
	 * Updates the fields that {@code floorSetting} gives (its non-null top-level fields).
	 * @param name whose floor setting
	 * @param floorSetting the new values
	 * @return the floor setting as updated
	 */
	FloorSetting update(FloorSettingName name, FloorSetting floorSetting);

	/**
	 * Updates exactly the fields named by a field mask.
	 * @param name whose floor setting
	 * @param floorSetting the new values
	 * @param updateMask field paths such as {@code filterConfig}; empty overwrites every field
	 * @return the floor setting as updated
	 */
	FloorSetting update(FloorSettingName name, FloorSetting floorSetting, List<String> updateMask);

}
