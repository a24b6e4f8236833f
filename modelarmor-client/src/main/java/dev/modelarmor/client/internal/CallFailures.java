package dev.modelarmor.client.internal;

import java.util.Objects;

import dev.modelarmor.client.ModelArmorApiException;
import dev.modelarmor.client.ModelArmorException;
import dev.modelarmor.retry.CallOutcome;
import org.jspecify.annotations.Nullable;

/**
 * What the calls do to the client's exceptions before they throw them: name the call, mark the call's end,
 * name the template that was not found. Those steps stay package-private in the exceptions, so that no
 * application can change an exception it caught; {@link ModelArmorException} hands them over here when its
 * class is initialized, which has happened by the time a call holds one of its instances.
 */
public abstract class CallFailures {

	private static volatile @Nullable CallFailures installed;

	/**
	 * Hands the exceptions' steps over; called once, by {@link ModelArmorException}'s initialization.
	 * @param failures the steps
	 */
	public static void install(CallFailures failures) {
		installed = failures;
	}

	static CallFailures get() {
		return Objects.requireNonNull(installed, "ModelArmorException is not initialized");
	}

	/**
	 * Names the call a failure ends.
	 * @param failure the failure
	 * @param callId the call's id
	 * @param template the template the call named, or {@code null}
	 * @return the same failure
	 */
	protected abstract ModelArmorException identifiedAs(ModelArmorException failure, String callId,
			@Nullable String template);

	/**
	 * The failure as the end of its call.
	 * @param failure the failure of the call's last attempt
	 * @param outcome how the call ended
	 * @return the exception to throw
	 */
	protected abstract ModelArmorException endedWith(ModelArmorException failure, CallOutcome outcome);

	/**
	 * Names the template that the API did not find.
	 * @param failure the API's error
	 * @param template the template id
	 * @return the same failure
	 */
	protected abstract ModelArmorApiException templateNotFound(ModelArmorApiException failure, String template);

}
