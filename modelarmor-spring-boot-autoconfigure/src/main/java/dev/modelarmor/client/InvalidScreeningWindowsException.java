package dev.modelarmor.client;

/**
 * A {@link ScreeningWindows} setting has a value that windowed screening cannot work with.
 * {@link #setting()} is the setting's name as it appears under {@code modelarmor.guard.window.}, so
 * that configuration errors can name the property.
 */
public class InvalidScreeningWindowsException extends IllegalArgumentException {

	private final String setting;

	private final long value;

	private final String reason;

	/**
	 * Creates an exception.
	 * @param setting the setting's name, e.g. {@code max-windows}
	 * @param value the rejected value
	 * @param reason why it is rejected
	 */
	public InvalidScreeningWindowsException(String setting, long value, String reason) {
		super(setting + " " + reason + " but was " + value);
		this.setting = setting;
		this.value = value;
		this.reason = reason;
	}

	/**
	 * The setting's name, as it appears after {@code modelarmor.guard.window.}.
	 * @return the setting name
	 */
	public String setting() {
		return this.setting;
	}

	/**
	 * The rejected value.
	 * @return the value
	 */
	public long value() {
		return this.value;
	}

	/**
	 * Why the value is rejected.
	 * @return the reason, e.g. {@code must be from 1 to 32}
	 */
	public String reason() {
		return this.reason;
	}

}
