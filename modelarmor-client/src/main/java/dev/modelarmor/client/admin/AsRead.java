package dev.modelarmor.client.admin;

import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * A template or a floor setting as Model Armor sent it: the JSON object of the answer, members and enum
 * values that this client does not model included. A {@link Template} or a {@link FloorSetting} that was
 * read holds it, and every change sent from that value (an update, a create from it) starts from this JSON
 * and changes only what differs between the value as read and the value sent. So a field that Model Armor
 * gained after this client was written, or an enum value that reads as {@code UNRECOGNIZED}, travels back
 * exactly as it came.
 *
 * <p>{@link #toString()} shows only the size.
 */
public final class AsRead {

	private final String json;

	/**
	 * Holds the JSON of a template or a floor setting as Model Armor sent it.
	 * @param json a JSON object
	 */
	public AsRead(String json) {
		this.json = Objects.requireNonNull(json, "json must not be null");
	}

	/**
	 * The JSON object as Model Armor sent it.
	 * @return the JSON text
	 */
	public String json() {
		return this.json;
	}

	@Override
	public boolean equals(@Nullable Object other) {
		return (this == other) || (other instanceof AsRead that && this.json.equals(that.json));
	}

	@Override
	public int hashCode() {
		return this.json.hashCode();
	}

	@Override
	public String toString() {
		return "AsRead[" + this.json.length() + " chars]";
	}

}
