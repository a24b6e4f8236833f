package dev.modelarmor.screening.media;

/**
 * What becomes of media in a prompt that Model Armor cannot screen: audio, video, images other than JPEG,
 * PNG and BMP, other types, media given by URL (which the starter never fetches: that would let any user
 * make the server request it) and media that cannot be read. Media larger than Model Armor screens is
 * blocked whatever this says, as text is.
 */
public enum UnscreenableMedia {

	/** The call is blocked with a refusal, a WARN line and the metric's {@code rejected} result. */
	BLOCK,

	/**
	 * The media goes on unscreened, each time with a WARN line (its media type and why, never its content or
	 * URL) and the metric's {@code unscreened} result.
	 */
	ALLOW

}
