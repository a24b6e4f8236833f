package dev.modelarmor.reliability;

import java.util.concurrent.Callable;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import dev.modelarmor.client.HttpTimeouts;
import dev.modelarmor.client.ModelArmorEndpoint;
import dev.modelarmor.client.ModelArmorTemplate;
import dev.modelarmor.retry.JitteredTruncatedBackOffPolicy;
import dev.modelarmor.retry.ModelArmorRetryTemplates;
import dev.modelarmor.retry.RetryRuntime;
import dev.modelarmor.retry.RetrySettings;
import org.slf4j.LoggerFactory;


/**
 * What the reliability tests share: a template against a {@link LoopbackModelArmor}, built as an
 * application's would be, and a way to run a load without the retry WARN line of every retry.
 */
final class ReliabilityFixtures {

	private ReliabilityFixtures() {
	}

	static ModelArmorTemplate template(LoopbackModelArmor server, RetrySettings settings, HttpTimeouts timeouts) {
		return ModelArmorTemplate.builder()
			.endpoint(ModelArmorEndpoint.of(server.url()))
			.timeouts(timeouts)
			.retryTemplate(ModelArmorRetryTemplates.retrying(settings, RetryRuntime.system()))
			.projectId("demo-project")
			.location("us-central1")
			.templateId("default-template")
			.build();
	}

	/**
	 * Runs a load with the retry logger at ERROR: thousands of retry WARN lines (their shape is checked
	 * elsewhere) would flood the build log and serialise the calling threads on the console appender,
	 * which is not what these tests measure.
	 */
	static <T> T withoutRetryLines(Callable<T> load) throws Exception {
		Logger retryLogger = (Logger) LoggerFactory.getLogger(JitteredTruncatedBackOffPolicy.class);
		Level before = retryLogger.getLevel();
		retryLogger.setLevel(Level.ERROR);
		try {
			return load.call();
		}
		finally {
			retryLogger.setLevel(before);
		}
	}

}
