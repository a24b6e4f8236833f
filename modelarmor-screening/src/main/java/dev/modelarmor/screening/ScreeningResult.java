package dev.modelarmor.screening;

import dev.modelarmor.screening.media.UnscreenableMedia;
import java.util.Locale;

/**
 * What became of one screening of a {@code @ModelArmorGuarded} call.
 */
public enum ScreeningResult {

	/** Nothing matched; the call went on. */
	ALLOWED,

	/** A match blocked the call. */
	BLOCKED,

	/** A match was replaced by de-identified text and the call went on. */
	DEIDENTIFIED,

	/** A match was logged and the call went on ({@link MatchAction#LOG_ONLY}). */
	LOGGED,

	/** Screening could not complete and the call went on (fail-open). */
	FAILED_OPEN,

	/** Screening could not complete and the call was blocked (fail-closed). */
	FAILED_CLOSED,

	/**
	 * Model Armor refused the text itself (too large, or answered HTTP 400 or 413) and the call was blocked,
	 * whatever fail-open says; or the call held media that Model Armor cannot screen (audio, video, media by
	 * URL, …) and was blocked ({@link UnscreenableMedia#BLOCK}).
	 */
	REJECTED,

	/**
	 * The call held media that Model Armor cannot screen and went on without it being screened, as
	 * {@link UnscreenableMedia#ALLOW} lets it.
	 */
	UNSCREENED;

	/**
	 * The name used in metric tags.
	 * @return e.g. {@code failed_open}
	 */
	public String tag() {
		return name().toLowerCase(Locale.ROOT);
	}

}
