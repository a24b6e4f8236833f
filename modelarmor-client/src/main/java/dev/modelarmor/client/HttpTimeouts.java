package dev.modelarmor.client;

import java.time.Duration;

import dev.modelarmor.retry.InvalidSettingException;
import org.jspecify.annotations.Nullable;

/**
 * Timeouts of each HTTP attempt. The read timeout is further bounded by what is left of the retry
 * deadline.
 *
 * @param connect the time allowed to open a connection
 * @param read the time allowed for an answer, per attempt
 */
public record HttpTimeouts(Duration connect, Duration read) {

	/** 5 s to connect, 30 s to answer. */
	public static final HttpTimeouts DEFAULTS = new HttpTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(30));

	/**
	 * Timeouts where those given are set, and those of {@link #DEFAULTS} where they are not.
	 * @param connect the time allowed to open a connection, or {@code null} for the default
	 * @param read the time allowed for an answer, per attempt, or {@code null} for the default
	 * @return the timeouts
	 * @throws InvalidSettingException when a timeout is not positive
	 */
	static HttpTimeouts of(@Nullable Duration connect, @Nullable Duration read) {
		return new HttpTimeouts((connect != null) ? connect : DEFAULTS.connect(), (read != null) ? read : DEFAULTS.read());
	}

	/**
	 * Rejects timeouts that are not positive.
	 */
	public HttpTimeouts {
		if (connect.isNegative() || connect.isZero()) {
			throw new InvalidSettingException("connect-timeout", connect, "must be positive");
		}
		if (read.isNegative() || read.isZero()) {
			throw new InvalidSettingException("read-timeout", read, "must be positive");
		}
	}

}
