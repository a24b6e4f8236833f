package dev.modelarmor.benchmarks.fleet;

import java.util.concurrent.atomic.AtomicInteger;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import org.slf4j.LoggerFactory;

/**
 * Counts the WARN lines one class logs while it is open: attached to Logback after the instances started,
 * since Spring Boot resets the logging configuration whenever an application starts.
 */
final class WarningCounter implements AutoCloseable {

	private final Logger logger;

	private final AtomicInteger warnings = new AtomicInteger();

	private final AppenderBase<ILoggingEvent> appender = new AppenderBase<>() {

		@Override
		protected void append(ILoggingEvent event) {
			if (event.getLevel().isGreaterOrEqual(Level.WARN)) {
				WarningCounter.this.warnings.incrementAndGet();
			}
		}

	};

	WarningCounter(Class<?> source) {
		this.logger = (Logger) LoggerFactory.getLogger(source);
		this.appender.setContext(this.logger.getLoggerContext());
		this.appender.start();
		this.logger.addAppender(this.appender);
	}

	int count() {
		return this.warnings.get();
	}

	@Override
	public void close() {
		this.logger.detachAppender(this.appender);
		this.appender.stop();
	}

}
