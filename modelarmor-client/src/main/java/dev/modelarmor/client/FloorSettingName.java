package dev.modelarmor.client;

import dev.modelarmor.client.internal.PathIds;

import org.springframework.util.Assert;

/**
 * Whose floor setting: a project, a folder or an organization, in a location ({@code global} unless the
 * setting is regional).
 *
 * @param parentType {@code projects}, {@code folders} or {@code organizations}
 * @param parentId the project id, folder number or organization number
 * @param location the location, usually {@code global}
 */
public record FloorSettingName(String parentType, String parentId, String location) {

	/**
	 * Rejects unknown parent types, and ids that cannot go into a request's path: blank, {@code .} or
	 * {@code ..} (also percent-encoded). Any other id is sent as one percent-encoded path segment.
	 * @throws IllegalArgumentException naming the argument
	 */
	public FloorSettingName {
		Assert.isTrue("projects".equals(parentType) || "folders".equals(parentType)
				|| "organizations".equals(parentType), "parentType must be projects, folders or organizations");
		PathIds.require("parentId", parentId);
		PathIds.require("location", location);
	}

	/**
	 * A project's global floor setting.
	 * @param projectId the project id
	 * @return the name
	 */
	public static FloorSettingName project(String projectId) {
		return new FloorSettingName("projects", projectId, "global");
	}

	/**
	 * A folder's global floor setting.
	 * @param folderId the folder number
	 * @return the name
	 */
	public static FloorSettingName folder(String folderId) {
		return new FloorSettingName("folders", folderId, "global");
	}

	/**
	 * An organization's global floor setting.
	 * @param organizationId the organization number
	 * @return the name
	 */
	public static FloorSettingName organization(String organizationId) {
		return new FloorSettingName("organizations", organizationId, "global");
	}

	/**
	 * The same parent in another location.
	 * @param location the location
	 * @return the name
	 */
	public FloorSettingName in(String location) {
		return new FloorSettingName(this.parentType, this.parentId, location);
	}

	@Override
	public String toString() {
		return this.parentType + "/" + this.parentId + "/locations/" + this.location + "/floorSetting";
	}

}
