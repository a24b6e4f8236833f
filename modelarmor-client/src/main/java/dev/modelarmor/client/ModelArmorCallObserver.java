package dev.modelarmor.client;

import org.jspecify.annotations.Nullable;

/**
 * Watches the logical calls that {@link ModelArmorTemplate} makes, for metrics and traces. The starter
 * provides a Micrometer implementation when Micrometer is present; without one nothing is recorded.
 */
public interface ModelArmorCallObserver {

	/** Records nothing. */
	ModelArmorCallObserver NONE = (operation) -> new Call() {
	};

	/**
	 * A call starts.
	 * @param operation what it does, e.g. {@code sanitize_user_prompt} or {@code templates.create}
	 * @return the handle that receives the rest of the call
	 */
	Call start(String operation);

	/**
	 * A call starts, naming the template it screens with; by default {@link #start(String)}.
	 * @param operation what it does, e.g. {@code sanitize_user_prompt} or {@code templates.create}
	 * @param template the template id, or {@code null} when the call names none
	 * @return the handle that receives the rest of the call
	 */
	default Call start(String operation, @Nullable String template) {
		return start(operation);
	}

	/**
	 * One call in progress.
	 */
	interface Call {

		/**
		 * An attempt failed; another may follow.
		 * @param attempt the attempt's number, from 1
		 * @param failure a short description such as {@code HTTP 503}, never content
		 */
		default void attemptFailed(int attempt, String failure) {
		}

		/**
		 * The call ended, answered or not.
		 * @param result how it ended
		 */
		default void finished(CallResult result) {
		}

		/**
		 * The call goes on away from the thread that started it (the non-blocking path): whatever the observer
		 * put in that thread's context when the call started is taken back now, on that thread, since the call
		 * will end on another one.
		 */
		default void leftTheStartingThread() {
		}

	}

}
