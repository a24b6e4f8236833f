package dev.modelarmor.logging;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.LoggerContextListener;
import ch.qos.logback.core.AppenderBase;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestPlan;
import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;

/**
 * Captures every log event at INFO or above for the whole test run, so that {@link LogHygieneTests}
 * can check what the suite's scenarios logged. Registered through {@code META-INF/services} as a JUnit
 * Platform {@link LauncherSessionListener} (attaches a Logback appender to the root logger when the
 * session opens) and as a {@link TestExecutionListener} (remembers which test classes the run holds).
 *
 * <p>The appender survives a reset of the Logback context (as Spring Boot's logging system does when
 * an application starts): a reset-resistant context listener attaches it again.
 */
public final class SuiteLogCapture implements LauncherSessionListener, TestExecutionListener {

	private static final Queue<CapturedLine> lines = new ConcurrentLinkedQueue<>();

	private static final Set<String> plannedClasses = ConcurrentHashMap.newKeySet();

	private static volatile boolean installed;

	/**
	 * One captured event.
	 * @param level the level
	 * @param logger the logger name
	 * @param text the formatted message, then each throwable's class and message, causes and suppressed
	 * included
	 */
	public record CapturedLine(Level level, String logger, String text) {

		@Override
		public String toString() {
			return this.level + " " + this.logger + " - " + this.text;
		}

	}

	@Override
	public void launcherSessionOpened(LauncherSession session) {
		install();
	}

	@Override
	public void testPlanExecutionStarted(TestPlan testPlan) {
		testPlan.getRoots()
			.forEach((root) -> testPlan.getDescendants(root)
				.forEach((id) -> id.getSource()
					.filter(ClassSource.class::isInstance)
					.ifPresent((source) -> plannedClasses.add(((ClassSource) source).getClassName()))));
	}

	/**
	 * Whether the appender is attached: Logback is the SLF4J backend and the session listener ran.
	 * @return {@code true} when events are being captured
	 */
	public static boolean installed() {
		return installed;
	}

	/**
	 * The captured lines so far, oldest first.
	 * @return a copy
	 */
	public static List<CapturedLine> lines() {
		return List.copyOf(lines);
	}

	/**
	 * The test classes of the running test plan.
	 * @return their names
	 */
	public static Set<String> plannedClasses() {
		return Set.copyOf(plannedClasses);
	}

	private static synchronized void install() {
		if (installed) {
			return;
		}
		ILoggerFactory factory = LoggerFactory.getILoggerFactory();
		if (!(factory instanceof LoggerContext context)) {
			return;
		}
		Appender appender = new Appender();
		appender.setContext(context);
		appender.setName("suite-log-capture");
		appender.start();
		attach(context, appender);
		context.addListener(new ReattachOnReset(appender));
		installed = true;
	}

	private static void attach(LoggerContext context, Appender appender) {
		Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
		if (root.getAppender(appender.getName()) == null) {
			root.addAppender(appender);
		}
	}

	static String describe(ILoggingEvent event) {
		StringBuilder text = new StringBuilder(String.valueOf(event.getFormattedMessage()));
		if (event.getKeyValuePairs() != null) {
			event.getKeyValuePairs().forEach((pair) -> text.append(' ').append(pair.key).append('=').append(pair.value));
		}
		appendThrowable(text, event.getThrowableProxy(), Collections.newSetFromMap(new IdentityHashMap<>()));
		return text.toString();
	}

	private static void appendThrowable(StringBuilder text, IThrowableProxy throwable, Set<IThrowableProxy> seen) {
		if (throwable == null || !seen.add(throwable)) {
			return;
		}
		text.append(" | ").append(throwable.getClassName()).append(": ").append(throwable.getMessage());
		appendThrowable(text, throwable.getCause(), seen);
		if (throwable.getSuppressed() != null) {
			for (IThrowableProxy suppressed : throwable.getSuppressed()) {
				appendThrowable(text, suppressed, seen);
			}
		}
	}

	private static final class Appender extends AppenderBase<ILoggingEvent> {

		@Override
		protected void append(ILoggingEvent event) {
			if (event.getLevel().isGreaterOrEqual(Level.INFO)) {
				lines.add(new CapturedLine(event.getLevel(), event.getLoggerName(), describe(event)));
			}
		}

	}

	private record ReattachOnReset(Appender appender) implements LoggerContextListener {

		@Override
		public boolean isResetResistant() {
			return true;
		}

		@Override
		public void onStart(LoggerContext context) {
			attach(context, this.appender);
		}

		@Override
		public void onReset(LoggerContext context) {
			if (!this.appender.isStarted()) {
				this.appender.start();
			}
			attach(context, this.appender);
		}

		@Override
		public void onStop(LoggerContext context) {
		}

		@Override
		public void onLevelChange(Logger logger, Level level) {
		}

	}

}
