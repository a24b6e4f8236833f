package dev.modelarmor.internal;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.springframework.retry.RetryListener;
import org.springframework.retry.support.RetryTemplate;

/**
 * The starter's {@link RetryTemplate}, which remembers the listeners registered on it (by a
 * {@code ModelArmorRetryCustomizer}, say), so that the non-blocking path's retries tell them of their calls as
 * the template tells them of the blocking path's. spring-retry's own DEBUG lines log under this class's name:
 * it stays outside {@code dev.modelarmor.retry}, whose lines are the starter's.
 */
public final class ListenedRetryTemplate extends RetryTemplate {

	private final List<RetryListener> listeners = new CopyOnWriteArrayList<>();

	@Override
	public void setListeners(RetryListener[] listeners) {
		super.setListeners(listeners);
		this.listeners.clear();
		this.listeners.addAll(List.of(listeners));
	}

	/** Also where {@code registerListener(listener)} ends, with the index after the last listener. */
	@Override
	public void registerListener(RetryListener listener, int index) {
		super.registerListener(listener, index);
		this.listeners.add(Math.min(index, this.listeners.size()), listener);
	}

	/**
	 * The listeners in the order the template calls them on open.
	 * @return a live view
	 */
	public List<RetryListener> listeners() {
		return this.listeners;
	}

}
