package dev.modelarmor.retry;

import java.time.Duration;

/**
 * A retry setting has a value the strategy cannot work with. {@link #setting()} is the setting's name
 * as it appears under {@code modelarmor.retry.}, so that configuration errors can name the property.
 */
public class InvalidRetrySettingException extends IllegalArgumentException {

	private final String setting;

	private final transient Object value;

	private final String reason;

	/**
	 * Creates an exception.
	 * @param setting the setting's name, e.g. {@code max-backoff}
	 * @param value the rejected value
	 * @param reason why it is rejected
	 */
	public InvalidRetrySettingException(String setting, Object value, String reason) {
		super(setting + " " + reason + " but was " + value);
		this.setting = setting;
		this.value = value;
		this.reason = reason;
	}

	/**
	 * The setting's name, as it appears after {@code modelarmor.retry.}.
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
			throw new InvalidRetrySettingException(setting, value, "must not be negative");
		}
	}

}
