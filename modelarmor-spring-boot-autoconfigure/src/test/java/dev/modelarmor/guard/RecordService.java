package dev.modelarmor.guard;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * A guarded service that summarises a medical record: a prompt and an answer that must never appear
 * in a log line or an exception. Its body's runs are counted by {@link BodyRuns}.
 */
class RecordService {

	static final String QUESTION = "Summarise my medical record";

	static final String ANSWER = "You were treated for a broken arm in 2019";

	private final BodyRuns runs;

	RecordService(BodyRuns runs) {
		this.runs = runs;
	}

	@ModelArmorGuarded
	public String summarise(String question) {
		this.runs.ran(question);
		return ANSWER;
	}

	/** The service and its run counter, as beans. */
	@Configuration(proxyBeanMethods = false)
	static class Beans {

		@Bean
		BodyRuns bodyRuns() {
			return new BodyRuns();
		}

		@Bean
		RecordService recordService(BodyRuns runs) {
			return new RecordService(runs);
		}

	}

}
