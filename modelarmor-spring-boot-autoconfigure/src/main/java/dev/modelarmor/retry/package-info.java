/**
 * Google's retry strategy for Model Armor: the seed's truncated exponential backoff with jitter, the
 * deadline, the classification of retryable failures, server retry hints, and their spring-retry adapters.
 */
@NullMarked
package dev.modelarmor.retry;

import org.jspecify.annotations.NullMarked;
