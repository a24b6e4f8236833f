/**
 * Media of a prompt (images, documents) as Model Armor screens it: {@link dev.modelarmor.screening.media.MediaItem}
 * built by {@link dev.modelarmor.screening.media.MediaItems} from bytes, a {@code Resource}, a {@code MultipartFile}
 * or a framework's media type read by a {@link dev.modelarmor.screening.media.MediaAdapter}, and what media that
 * cannot be screened does ({@link dev.modelarmor.screening.media.UnscreenableMedia}).
 */
@NullMarked
package dev.modelarmor.screening.media;

import org.jspecify.annotations.NullMarked;
