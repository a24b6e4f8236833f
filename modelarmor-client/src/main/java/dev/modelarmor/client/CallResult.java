package dev.modelarmor.client;

import java.time.Duration;

import dev.modelarmor.retry.CallOutcome;

/**
 * How one logical Model Armor call ended.
 *
 * @param operation what it did, e.g. {@code sanitize_user_prompt}
 * @param outcome how it ended
 * @param status the HTTP status of the last attempt ({@code 200}, {@code 503}), {@code io_error} when it got
 * no answer, {@code token_unavailable} when no access token could be obtained for it, or {@code none} when
 * nothing was sent
 * @param attempts the HTTP attempts made
 * @param backoff the time spent waiting between attempts
 */
public record CallResult(String operation, CallOutcome outcome, String status, int attempts, Duration backoff) {
}
