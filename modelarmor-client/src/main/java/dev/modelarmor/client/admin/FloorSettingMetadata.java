package dev.modelarmor.client.admin;

import dev.modelarmor.client.admin.TemplateMetadata.MultiLanguageDetection;
import org.jspecify.annotations.Nullable;

/**
 * The metadata of a floor setting.
 *
 * @param multiLanguageDetection the multi-language detection setting, or {@code null} when not given
 */
public record FloorSettingMetadata(@Nullable MultiLanguageDetection multiLanguageDetection) {

}
