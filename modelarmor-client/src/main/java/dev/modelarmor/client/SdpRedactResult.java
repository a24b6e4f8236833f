package dev.modelarmor.client;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * The result of a Sensitive Data Protection redaction of an image ({@code sdpFilterResult.redactResult},
 * added to the API in 2026): the image with its sensitive data blacked out.
 *
 * <p>What the server sends is hostile input: a redacted image is kept only when it is at most
 * {@link DataItem#MAX_BYTES} and its bytes are a JPEG, PNG or BMP image ({@link ImageFormat#detect(byte[])});
 * anything else reads as no redacted image, so the match cannot be de-identified and blocks.
 * {@link #toString()} never shows the image.
 *
 * @param executionState whether the filter ran
 * @param messageItems the messages of the filter; empty when absent
 * @param matchState whether the filter matched
 * @param redactedImage the redacted image's bytes (base64 on the wire), or {@code null} when absent or not
 * a valid image of at most {@link DataItem#MAX_BYTES}
 * @param findings the findings; empty when absent
 * @param extractedImageText the text Model Armor read in the image (Google's {@code extractedImageText}), or
 * {@code null} when absent. It is screened content: {@link #toString()} never shows it.
 */
public record SdpRedactResult(FilterExecutionState executionState, List<MessageItem> messageItems,
		FilterMatchState matchState, byte @Nullable [] redactedImage, List<SdpFinding> findings,
		@Nullable String extractedImageText) implements FilterDetails {

	/**
	 * Creates a result, keeping the redacted image only when it is a valid image within the limit.
	 * @param executionState whether the filter ran
	 * @param messageItems the messages of the filter
	 * @param matchState whether the filter matched
	 * @param redactedImage the redacted image, or {@code null}
	 * @param findings the findings
	 * @param extractedImageText the text read in the image, or {@code null}
	 */
	public SdpRedactResult {
		// Jackson passes null for an absent field; the API leaves out default values.
		executionState = Objects.requireNonNullElse(executionState,
				FilterExecutionState.FILTER_EXECUTION_STATE_UNSPECIFIED);
		messageItems = Defaults.list(messageItems);
		matchState = Objects.requireNonNullElse(matchState, FilterMatchState.FILTER_MATCH_STATE_UNSPECIFIED);
		findings = Defaults.list(findings);
		redactedImage = (redactedImage != null && redactedImage.length <= DataItem.MAX_BYTES
				&& ImageFormat.detect(redactedImage) != null) ? redactedImage.clone() : null;
	}

	/**
	 * Creates a result without text read in the image.
	 * @param executionState whether the filter ran
	 * @param messageItems the messages of the filter
	 * @param matchState whether the filter matched
	 * @param redactedImage the redacted image, or {@code null}
	 * @param findings the findings
	 */
	public SdpRedactResult(FilterExecutionState executionState, List<MessageItem> messageItems,
			FilterMatchState matchState, byte @Nullable [] redactedImage, List<SdpFinding> findings) {
		this(executionState, messageItems, matchState, redactedImage, findings, null);
	}

	/**
	 * A copy of the redacted image's bytes.
	 * @return the bytes, or {@code null}
	 */
	@Override
	public byte @Nullable [] redactedImage() {
		return (this.redactedImage != null) ? this.redactedImage.clone() : null;
	}

	/**
	 * The redacted image as an {@link ByteDataType#IMAGE} item.
	 * @return the item, or empty when the server sent no valid redacted image
	 */
	public Optional<DataItem> redactedImageItem() {
		return (this.redactedImage != null) ? Optional.of(DataItem.image(this.redactedImage)) : Optional.empty();
	}

	@Override
	public boolean equals(@Nullable Object other) {
		return (this == other) || (other instanceof SdpRedactResult that && this.executionState == that.executionState
				&& this.messageItems.equals(that.messageItems) && this.matchState == that.matchState
				&& Arrays.equals(this.redactedImage, that.redactedImage) && this.findings.equals(that.findings)
				&& Objects.equals(this.extractedImageText, that.extractedImageText));
	}

	@Override
	public int hashCode() {
		return Objects.hash(this.executionState, this.messageItems, this.matchState, Arrays.hashCode(this.redactedImage),
				this.findings, this.extractedImageText);
	}

	@Override
	public String toString() {
		return "SdpRedactResult[executionState=" + this.executionState + ", matchState=" + this.matchState
				+ ", redactedImage=" + ((this.redactedImage != null) ? this.redactedImage.length + " bytes" : "none")
				+ ", findings=" + this.findings.size() + ", extractedImageText="
				+ ((this.extractedImageText != null) ? this.extractedImageText.length() + " chars" : "none") + "]";
	}

}
