package dev.modelarmor.client.admin;

import org.jspecify.annotations.Nullable;

import dev.modelarmor.client.admin.TemplateMetadata.MultiLanguageDetection;

/**
 * The metadata of a floor setting.
 *
 * @param multiLanguageDetection the multi-language detection setting, or {@code null} when not given
 */
public record FloorSettingMetadata(@Nullable MultiLanguageDetection multiLanguageDetection) {

}
