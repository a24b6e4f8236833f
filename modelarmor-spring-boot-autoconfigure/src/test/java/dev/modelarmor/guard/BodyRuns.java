package dev.modelarmor.guard;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Records each run of a guarded method's body and what it received. Kept outside the guarded bean so
 * that reading it never goes through the guard's proxy.
 */
public final class BodyRuns {

	private final List<Object> received = new CopyOnWriteArrayList<>();

	public void ran(Object argument) {
		this.received.add(argument);
	}

	public int count() {
		return this.received.size();
	}

	public List<Object> received() {
		return this.received;
	}

}
