package dev.modelarmor.langchain4j;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Names a model or a tool chose are hostile input: they reach log lines only made safe.
 */
class ScreeningsTests {

	@Test
	void aNameIsCutAndStrippedOfWhatCouldForgeALogLine() {
		assertThat(Screenings.loggable("get_weather-v2.1:eu")).isEqualTo("get_weather-v2.1:eu");
		assertThat(Screenings.loggable("evil\nlevel=INFO \u001b[31mname")).isEqualTo("evil?level?INFO???31mname");
		assertThat(Screenings.loggable("x".repeat(100))).hasSize(64);
		assertThat(Screenings.loggable("")).isEqualTo("unnamed");
		assertThat(Screenings.loggable(null)).isEqualTo("unnamed");
	}

}
