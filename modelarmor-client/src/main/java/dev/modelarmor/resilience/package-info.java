/**
 * What admits each HTTP attempt of a Model Armor call before it is sent: the project's quota, shared by a
 * fleet through Redis or kept in-process, and a circuit breaker that fails calls at once while Model Armor
 * is down. {@link dev.modelarmor.resilience.AttemptGate} is the one object the client consults before each
 * attempt and tells how the attempt went; a refusal is returned as a value with its
 * {@link dev.modelarmor.retry.CallOutcome}.
 */
@NullMarked
package dev.modelarmor.resilience;

import org.jspecify.annotations.NullMarked;
