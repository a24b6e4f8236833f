package dev.modelarmor.client;

import java.util.List;

/**
 * What every kind of filter result reports.
 */
public interface FilterDetails {

	/**
	 * Whether the filter ran.
	 * @return the execution state, never {@code null}
	 */
	FilterExecutionState executionState();

	/**
	 * Whether the filter matched.
	 * @return the match state, never {@code null}
	 */
	FilterMatchState matchState();

	/**
	 * The messages that the filter attached.
	 * @return an unmodifiable list, possibly empty
	 */
	List<MessageItem> messageItems();

	/**
	 * Whether the filter matched.
	 * @return {@code true} for {@link FilterMatchState#MATCH_FOUND}
	 */
	default boolean matched() {
		return matchState() == FilterMatchState.MATCH_FOUND;
	}

}
