/**
 * Micrometer metrics and observations (traces) of the Model Armor starter.
 *
 * <p>{@link dev.modelarmor.observation.MicrometerCallObserver} times every logical client call (one
 * Micrometer {@code Observation} per call, its failed attempts as events) and
 * {@link dev.modelarmor.observation.MicrometerScreeningObserver} counts the screenings of guarded calls.
 * Micrometer is an optional dependency of the starter: nothing in this package is loaded without it.
 * Tag values are bounded vocabularies (operations, outcomes, statuses, filter names), never content.
 */
@NullMarked
package dev.modelarmor.observation;

import org.jspecify.annotations.NullMarked;
