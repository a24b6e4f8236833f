package dev.modelarmor.resilience;

import dev.modelarmor.retry.CallOutcome;

/**
 * An attempt that may not be sent.
 *
 * @param outcome the outcome the call ends with
 */
record Refusal(CallOutcome outcome) implements AttemptGate.Admission {

	@Override
	public CallOutcome refusal() {
		return this.outcome;
	}

}
