/**
 * Spring AI's moderation API over Model Armor:
 * {@link dev.modelarmor.ai.moderation.ModelArmorSpringAiModerationModel}.
 */
@NullMarked
package dev.modelarmor.ai.moderation;

import org.jspecify.annotations.NullMarked;
