package dev.modelarmor.screening.media;

/**
 * Reads a framework's media type (such as Spring AI's {@code Media}) as a {@link MediaItem}, so that a guarded
 * method's argument of that type is screened as an image or a document. For integration modules: found with
 * {@link java.util.ServiceLoader} ({@code META-INF/services/dev.modelarmor.screening.media.MediaAdapter}), so that the
 * screening layer names no framework it does not need.
 */
public interface MediaAdapter {

	/**
	 * The media type this adapter reads; values of it and of its subtypes are passed to {@link #adapt(Object)}.
	 * @return the type
	 */
	Class<?> type();

	/**
	 * Reads a value as media; {@link MediaItems} helps build the item from bytes and a declared media type.
	 * @param value a value of {@link #type()}
	 * @return the media, screenable or not
	 */
	MediaItem adapt(Object value);

}
