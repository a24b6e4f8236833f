/**
 * Google's retry strategy for Model Armor: its truncated exponential backoff with jitter, the
 * deadline, the classification of retryable failures, server retry hints, and their spring-retry adapters.
 * {@link dev.modelarmor.retry.ModelArmorRetryTemplates#execute} runs a call's attempts, handing each one
 * its deadline as a parameter and returning how the call ended as a value.
 */
@NullMarked
package dev.modelarmor.retry;

import org.jspecify.annotations.NullMarked;
