package dev.modelarmor.client;

import java.util.List;
import java.util.Objects;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.jspecify.annotations.Nullable;

/**
 * Sensitive data that a Sensitive Data Protection inspection found. It says where, never what.
 *
 * @param infoType the info type, e.g. {@code EMAIL_ADDRESS}; empty when absent
 * @param likelihood how likely the finding is; {@code SDP_FINDING_LIKELIHOOD_UNSPECIFIED} when absent
 * @param location where the data is, or {@code null}
 */
public record SdpFinding(String infoType, SdpFindingLikelihood likelihood, @Nullable SdpFindingLocation location) {

	/**
	 * Creates a finding.
	 * @param infoType the info type
	 * @param likelihood how likely the finding is
	 * @param location where the data is, or {@code null}
	 */
	public SdpFinding {
		// Jackson passes null for an absent field; the API leaves out default values.
		infoType = Objects.requireNonNullElse(infoType, "");
		likelihood = Objects.requireNonNullElse(likelihood, SdpFindingLikelihood.SDP_FINDING_LIKELIHOOD_UNSPECIFIED);
	}

	/**
	 * Where a finding is in the screened content.
	 *
	 * @param byteRange the range in bytes, or {@code null}
	 * @param codepointRange the range in Unicode code points, or {@code null}
	 * @param contentLocations where in a file, an embedded image or an image's pixels (Google's
	 * {@code contentLocations}); empty when absent
	 */
	public record SdpFindingLocation(@Nullable RangeInfo byteRange, @Nullable RangeInfo codepointRange,
			@JsonInclude(JsonInclude.Include.NON_EMPTY) List<SdpContentLocation> contentLocations) {

		/**
		 * Creates a location.
		 * @param byteRange the range in bytes, or {@code null}
		 * @param codepointRange the range in Unicode code points, or {@code null}
		 * @param contentLocations where in a file or an image; empty when absent
		 */
		public SdpFindingLocation {
			contentLocations = Defaults.list(contentLocations);
		}

		/**
		 * Creates a location in text.
		 * @param byteRange the range in bytes, or {@code null}
		 * @param codepointRange the range in Unicode code points, or {@code null}
		 */
		public SdpFindingLocation(@Nullable RangeInfo byteRange, @Nullable RangeInfo codepointRange) {
			this(byteRange, codepointRange, List.of());
		}

	}

	/**
	 * Where in a document, a record, an image or a metadata container a finding is (Google's
	 * {@code SdpContentLocation}). {@link #toString()} never shows the container's name: it is the user's
	 * file name.
	 *
	 * @param containerName the container: the source file's name at the top level, or {@code null} when absent
	 * (an image embedded in a document may have none)
	 * @param imageFindingLocation where in an image's pixels, or {@code null}
	 */
	public record SdpContentLocation(@Nullable String containerName,
			@Nullable SdpImageFindingLocation imageFindingLocation) {

		@Override
		public String toString() {
			return "SdpContentLocation[containerName=" + ((this.containerName != null) ? "(given)" : "none")
					+ ", imageFindingLocation=" + this.imageFindingLocation + "]";
		}

	}

	/**
	 * Where in an image's pixels a finding is (Google's {@code SdpImageFindingLocation}).
	 *
	 * @param boundingBoxes the boxes of pixels that hold the finding; empty when absent
	 */
	public record SdpImageFindingLocation(
			@JsonInclude(JsonInclude.Include.NON_EMPTY) List<SdpBoundingBox> boundingBoxes) {

		/**
		 * Creates a location.
		 * @param boundingBoxes the boxes; empty when absent
		 */
		public SdpImageFindingLocation {
			boundingBoxes = Defaults.list(boundingBoxes);
		}

	}

	/**
	 * A box of pixels, in pixels from the image's top left corner (Google's {@code SdpBoundingBox}); absent
	 * values read as 0.
	 *
	 * @param top the top edge
	 * @param left the left edge
	 * @param width the width
	 * @param height the height
	 */
	public record SdpBoundingBox(int top, int left, int width, int height) {

	}

}
