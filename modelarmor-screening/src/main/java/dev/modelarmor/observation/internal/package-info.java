/**
 * Not API: Micrometer metrics and observations (traces) of the Model Armor starter, registered by the
 * auto-configuration. It may change in any release; the meters and observations it records are documented in
 * {@code docs/observability.md}.
 *
 * <p>{@link dev.modelarmor.observation.internal.MicrometerCallObserver} times every logical client call (one
 * Micrometer {@code Observation} per call, its failed attempts as events) and
 * {@link dev.modelarmor.observation.internal.MicrometerScreeningObserver} counts the screenings of guarded calls.
 * Micrometer is an optional dependency of the starter: nothing in this package is loaded without it.
 * Tag values are bounded vocabularies (operations, outcomes, statuses, filter names), never content.
 */
@NullMarked
package dev.modelarmor.observation.internal;

import org.jspecify.annotations.NullMarked;
