package dev.modelarmor.autoconfigure;

import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.slf4j.MDC;

import org.springframework.core.task.TaskDecorator;

/**
 * Carries the caller's MDC to the thread that runs its task, and restores that thread's own afterwards,
 * so that the log lines of a window or of a prompt screened in parallel carry the request's keys.
 */
final class MdcTaskDecorator implements TaskDecorator {

	@Override
	public Runnable decorate(Runnable runnable) {
		@Nullable Map<String, String> caller = MDC.getCopyOfContextMap();
		return () -> {
			@Nullable Map<String, String> own = MDC.getCopyOfContextMap();
			set(caller);
			try {
				runnable.run();
			}
			finally {
				set(own);
			}
		};
	}

	private static void set(@Nullable Map<String, String> context) {
		if (context != null) {
			MDC.setContextMap(context);
		}
		else {
			MDC.clear();
		}
	}

}
