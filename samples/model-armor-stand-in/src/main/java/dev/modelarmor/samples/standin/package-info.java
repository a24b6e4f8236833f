/**
 * A local stand-in for the Model Armor REST API, <b>not Model Armor</b>, shared by the samples so that
 * they run without a Google Cloud account: import {@link dev.modelarmor.samples.standin.StandInConfiguration}
 * and run with profile {@code local}.
 */
@NullMarked
package dev.modelarmor.samples.standin;

import org.jspecify.annotations.NullMarked;
