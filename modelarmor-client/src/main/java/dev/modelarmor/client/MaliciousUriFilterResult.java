package dev.modelarmor.client;

import java.util.List;
import java.util.Objects;

/**
 * The result of the malicious URI filter.
 *
 * @param executionState whether the filter ran
 * @param messageItems the messages of the filter; empty when absent
 * @param matchState whether the filter matched
 * @param maliciousUriMatchedItems the malicious URIs found; empty when absent
 */
public record MaliciousUriFilterResult(FilterExecutionState executionState, List<MessageItem> messageItems,
		FilterMatchState matchState, List<MaliciousUriMatchedItem> maliciousUriMatchedItems) implements FilterDetails {

	/**
	 * Creates a result.
	 * @param executionState whether the filter ran
	 * @param messageItems the messages of the filter; empty when absent
	 * @param matchState whether the filter matched
	 * @param maliciousUriMatchedItems the malicious URIs found
	 */
	public MaliciousUriFilterResult {
		// Jackson passes null for an absent field; the API leaves out default values.
		executionState = Objects.requireNonNullElse(executionState,
				FilterExecutionState.FILTER_EXECUTION_STATE_UNSPECIFIED);
		messageItems = Defaults.list(messageItems);
		matchState = Objects.requireNonNullElse(matchState, FilterMatchState.FILTER_MATCH_STATE_UNSPECIFIED);
		maliciousUriMatchedItems = Defaults.list(maliciousUriMatchedItems);
	}

	/**
	 * A malicious URI and where it occurs.
	 *
	 * <p>{@link #toString()} shows only the URI's length: the URI comes from the screened content.
	 *
	 * @param uri the URI; empty when absent
	 * @param locations where the URI occurs; empty when absent
	 */
	public record MaliciousUriMatchedItem(String uri, List<RangeInfo> locations) {

		/**
		 * Creates an item.
		 * @param uri the URI
		 * @param locations where the URI occurs
		 */
		public MaliciousUriMatchedItem {
			// Jackson passes null for an absent field.
			uri = Objects.requireNonNullElse(uri, "");
			locations = Defaults.list(locations);
		}

		@Override
		public String toString() {
			return "MaliciousUriMatchedItem[uri=" + this.uri.length() + " chars, locations=" + this.locations + "]";
		}

	}

}
