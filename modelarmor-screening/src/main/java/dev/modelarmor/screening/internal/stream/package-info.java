/**
 * Not API: the segments in which a streamed answer is screened as it arrives, shared by the reactive
 * {@code @ModelArmorGuarded} methods and the Spring AI advisor. It may change in any release.
 */
@NullMarked
package dev.modelarmor.screening.internal.stream;

import org.jspecify.annotations.NullMarked;
