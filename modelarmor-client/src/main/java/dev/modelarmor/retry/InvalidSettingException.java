package dev.modelarmor.retry;

import java.time.Duration;

/**
 * A setting of the client or of the retry strategy has a value they cannot work with. {@link #setting()}
 * is the setting's name within its group of configuration properties ({@code read-timeout} under
 * {@code modelarmor.http.}, {@code max-backoff} under {@code modelarmor.retry.}, {@code size} under
 * {@code modelarmor.screening.window.}), so that a configuration error can name the property.
 */
public final class InvalidSettingException extends IllegalArgumentException {

	private final String setting;

	private final transient Object value;

	private final String reason;

	/**
	 * Creates an exception.
	 * @param setting the setting's name within its group, e.g. {@code max-backoff}
	 * @param value the rejected value
	 * @param reason why it is rejected
	 */
	public InvalidSettingException(String setting, Object value, String reason) {
		super(setting + " " + reason + " but was " + value);
		this.setting = setting;
		this.value = value;
		this.reason = reason;
	}

	/**
	 * The setting's name within its group, e.g. {@code max-backoff} or {@code budget.max-tokens}.
	 * @return the setting name
	 */
	public String setting() {
		return this.setting;
	}

	/**
	 * The rejected value.
	 * @return the value
	 */
	public Object value() {
		return this.value;
	}

	/**
	 * Why the value is rejected.
	 * @return the reason, e.g. {@code must not be negative}
	 */
	public String reason() {
		return this.reason;
	}

	static void requireNotNegative(String setting, Duration value) {
		if (value.isNegative()) {
			throw new InvalidSettingException(setting, value, "must not be negative");
		}
	}

}
