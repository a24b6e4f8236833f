/**
 * Not API: what the Spring AI packages share with the screening layer, such as the adapter that reads
 * Spring AI's {@code Media} (registered in {@code META-INF/services}). It may change in any release.
 */
@NullMarked
package dev.modelarmor.ai.internal;

import org.jspecify.annotations.NullMarked;
