package dev.modelarmor.autoconfigure;

import dev.modelarmor.retry.ShutdownAwareSleeper;
import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationContextAware;
import org.springframework.context.ApplicationListener;
import org.springframework.context.event.ContextClosedEvent;

/**
 * Ends the waits of calls that wait to retry as soon as this context starts closing, before the web
 * server's graceful shutdown waits for their requests. Child contexts closing do not count.
 */
class RetryShutdownListener implements ApplicationListener<ContextClosedEvent>, ApplicationContextAware {

	private final ShutdownAwareSleeper sleeper;

	private @Nullable ApplicationContext context;

	RetryShutdownListener(ShutdownAwareSleeper sleeper) {
		this.sleeper = sleeper;
	}

	@Override
	public void setApplicationContext(ApplicationContext context) {
		this.context = context;
	}

	@Override
	public void onApplicationEvent(ContextClosedEvent event) {
		if (event.getApplicationContext() == this.context) {
			this.sleeper.close();
		}
	}

}
