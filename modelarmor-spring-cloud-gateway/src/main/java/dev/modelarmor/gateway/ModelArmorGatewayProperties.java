package dev.modelarmor.gateway;

import java.time.Duration;

import dev.modelarmor.screening.MatchAction;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * The defaults of every {@code ModelArmor} gateway filter ({@code modelarmor.gateway.*}); a route's own
 * arguments override them.
 */
@ConfigurationProperties("modelarmor.gateway")
public class ModelArmorGatewayProperties {

	/** Whether the {@code ModelArmor} gateway filter is available to routes. */
	private boolean enabled = true;

	/**
	 * The largest request body read for screening; a larger one is refused with HTTP 413 in the API's error
	 * shape, and nothing is forwarded.
	 */
	private DataSize maxRequestSize = DataSize.ofMegabytes(4);

	/**
	 * The largest answer read for screening, and the most of a stream held back at once; a larger one is
	 * refused (HTTP 502, or a stream ended in the API's error shape).
	 */
	private DataSize maxResponseSize = DataSize.ofMegabytes(4);

	/** The largest server-sent event of a streamed answer; a larger one ends the stream in the API's error shape. */
	private DataSize maxEventSize = DataSize.ofKilobytes(256);

	/** What a match does unless a route says otherwise: block, de-identify (SDP only) or log only. */
	private MatchAction onMatch = MatchAction.BLOCK;

	/** Whether system (and developer) messages are screened as well as the user's and the tools' parts. */
	private boolean screenSystemMessages;

	/** The Retry-After of an HTTP 503 answered when Model Armor could not screen and the route fails closed. */
	private Duration retryAfter = Duration.ofSeconds(5);

	private final Stream stream = new Stream();

	/**
	 * Whether the filter is available to routes.
	 * @return {@code true} unless turned off
	 */
	public boolean isEnabled() {
		return this.enabled;
	}

	/**
	 * Sets whether the filter is available to routes.
	 * @param enabled whether it is
	 */
	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	/**
	 * The largest request body read for screening.
	 * @return the size, 4 MB unless set
	 */
	public DataSize getMaxRequestSize() {
		return this.maxRequestSize;
	}

	/**
	 * Sets the largest request body read for screening.
	 * @param maxRequestSize the size
	 */
	public void setMaxRequestSize(DataSize maxRequestSize) {
		this.maxRequestSize = maxRequestSize;
	}

	/**
	 * The largest answer read for screening, and the most of a stream held back at once.
	 * @return the size, 4 MB unless set
	 */
	public DataSize getMaxResponseSize() {
		return this.maxResponseSize;
	}

	/**
	 * Sets the largest answer read for screening.
	 * @param maxResponseSize the size
	 */
	public void setMaxResponseSize(DataSize maxResponseSize) {
		this.maxResponseSize = maxResponseSize;
	}

	/**
	 * The largest server-sent event of a streamed answer.
	 * @return the size, 256 KB unless set
	 */
	public DataSize getMaxEventSize() {
		return this.maxEventSize;
	}

	/**
	 * Sets the largest server-sent event of a streamed answer.
	 * @param maxEventSize the size
	 */
	public void setMaxEventSize(DataSize maxEventSize) {
		this.maxEventSize = maxEventSize;
	}

	/**
	 * What a match does unless a route says otherwise.
	 * @return the action, {@link MatchAction#BLOCK} unless set
	 */
	public MatchAction getOnMatch() {
		return this.onMatch;
	}

	/**
	 * Sets what a match does unless a route says otherwise.
	 * @param onMatch the action
	 */
	public void setOnMatch(MatchAction onMatch) {
		this.onMatch = onMatch;
	}

	/**
	 * Whether system and developer messages are screened.
	 * @return {@code false} unless set
	 */
	public boolean isScreenSystemMessages() {
		return this.screenSystemMessages;
	}

	/**
	 * Sets whether system and developer messages are screened.
	 * @param screenSystemMessages whether they are
	 */
	public void setScreenSystemMessages(boolean screenSystemMessages) {
		this.screenSystemMessages = screenSystemMessages;
	}

	/**
	 * The Retry-After of an HTTP 503 when Model Armor could not screen.
	 * @return the delay, 5 seconds unless set
	 */
	public Duration getRetryAfter() {
		return this.retryAfter;
	}

	/**
	 * Sets the Retry-After of an HTTP 503 when Model Armor could not screen.
	 * @param retryAfter the delay
	 */
	public void setRetryAfter(Duration retryAfter) {
		this.retryAfter = retryAfter;
	}

	/**
	 * How streamed answers are screened in segments.
	 * @return the stream settings
	 */
	public Stream getStream() {
		return this.stream;
	}

	/**
	 * How a streamed answer is screened: each segment of its text before any of it is released.
	 */
	public static class Stream {

		/**
		 * The UTF-8 bytes of text that wait for the first screening of an answer: about the model's first
		 * sentence, so that the first bytes leave one screening after it.
		 */
		private DataSize firstSegment = DataSize.ofBytes(256);

		/** The UTF-8 bytes of text that wait for each later screening. */
		private DataSize segment = DataSize.ofBytes(2048);

		/**
		 * The UTF-8 bytes of each segment held back and screened again with the next one, so that a phrase
		 * split across segments is seen whole; at most half the segment.
		 */
		private DataSize overlap = DataSize.ofBytes(512);

		/**
		 * The UTF-8 bytes that wait for the first screening.
		 * @return the size, 256 bytes unless set
		 */
		public DataSize getFirstSegment() {
			return this.firstSegment;
		}

		/**
		 * Sets the UTF-8 bytes that wait for the first screening.
		 * @param firstSegment the size
		 */
		public void setFirstSegment(DataSize firstSegment) {
			this.firstSegment = firstSegment;
		}

		/**
		 * The UTF-8 bytes that wait for each later screening.
		 * @return the size, 2048 bytes unless set
		 */
		public DataSize getSegment() {
			return this.segment;
		}

		/**
		 * Sets the UTF-8 bytes that wait for each later screening.
		 * @param segment the size
		 */
		public void setSegment(DataSize segment) {
			this.segment = segment;
		}

		/**
		 * The UTF-8 bytes of each segment screened again with the next.
		 * @return the size, 512 bytes unless set
		 */
		public DataSize getOverlap() {
			return this.overlap;
		}

		/**
		 * Sets the UTF-8 bytes of each segment screened again with the next.
		 * @param overlap the size
		 */
		public void setOverlap(DataSize overlap) {
			this.overlap = overlap;
		}

	}

}
