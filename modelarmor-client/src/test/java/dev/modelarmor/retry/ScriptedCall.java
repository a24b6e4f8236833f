package dev.modelarmor.retry;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import org.springframework.retry.RetryCallback;
import org.springframework.retry.RetryContext;

/**
 * A retry callback that fails as scripted, in virtual time, and records what each attempt saw.
 */
final class ScriptedCall implements RetryCallback<String, RuntimeException> {

	static final String RESULT = "sanitized";

	private final VirtualTime time;

	private final Iterator<Supplier<RuntimeException>> script;

	private final Supplier<RuntimeException> afterScript;

	private Duration attemptTime = Duration.ZERO;

	private final List<RuntimeException> thrown = new ArrayList<>();

	private final List<Instant> attemptStarts = new ArrayList<>();

	private final List<Optional<Duration>> remainingAtStart = new ArrayList<>();

	private ScriptedCall(VirtualTime time, List<Supplier<RuntimeException>> script,
			Supplier<RuntimeException> afterScript) {
		this.time = time;
		this.script = List.copyOf(script).iterator();
		this.afterScript = afterScript;
	}

	/** Fails with the given failures, one per attempt, then succeeds. */
	static ScriptedCall failingThenSucceeding(VirtualTime time, List<Supplier<RuntimeException>> failures) {
		return new ScriptedCall(time, failures, null);
	}

	/** Fails on every attempt with a new failure from the supplier. */
	static ScriptedCall alwaysFailing(VirtualTime time, Supplier<RuntimeException> failure) {
		return new ScriptedCall(time, List.of(), failure);
	}

	/** Each attempt takes this long in virtual time before it fails or succeeds. */
	ScriptedCall takingPerAttempt(Duration attemptTime) {
		this.attemptTime = attemptTime;
		return this;
	}

	@Override
	public String doWithRetry(RetryContext context) {
		this.attemptStarts.add(this.time.instant());
		this.remainingAtStart.add(Optional.ofNullable(RetryRecords.deadline(context)).map(RetryDeadline::remaining));
		this.time.advance(this.attemptTime);
		Supplier<RuntimeException> failure = this.script.hasNext() ? this.script.next() : this.afterScript;
		if (failure == null) {
			return RESULT;
		}
		RuntimeException ex = failure.get();
		this.thrown.add(ex);
		throw ex;
	}

	int attempts() {
		return this.attemptStarts.size();
	}

	List<Instant> attemptStarts() {
		return this.attemptStarts;
	}

	List<Optional<Duration>> remainingAtStart() {
		return this.remainingAtStart;
	}

	RuntimeException lastThrown() {
		return this.thrown.get(this.thrown.size() - 1);
	}

}
