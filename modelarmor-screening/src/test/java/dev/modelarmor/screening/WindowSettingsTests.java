package dev.modelarmor.screening;

import dev.modelarmor.retry.InvalidSettingException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * The ranges {@link WindowSettings} accepts, at their edges, and the setting a refusal names.
 */
class WindowSettingsTests {

	@Test
	void theDefaultsAreEightKilobyteWindowsOverlappingByOneFourInFlightAtMostSixtyFour() {
		assertThat(WindowSettings.DEFAULTS).isEqualTo(new WindowSettings(8192, 1024, 4, 64));
	}

	@ParameterizedTest(name = "{0}, {1}, {2}, {3}")
	@CsvSource(textBlock = """
			1024,    0,       1,  1
			1024,    512,     32, 1
			4194304, 2097152, 4,  2147483647
			""")
	void acceptsTheEdgesOfEveryRange(int size, int overlap, int parallelism, int maxWindows) {
		assertThatNoException().isThrownBy(() -> new WindowSettings(size, overlap, parallelism, maxWindows));
	}

	@ParameterizedTest(name = "{4}: {0}, {1}, {2}, {3}")
	@CsvSource(textBlock = """
			1023,    0,    1,  1, size,        1023
			4194305, 0,    1,  1, size,        4194305
			2048,    -1,   1,  1, overlap,     -1
			2048,    1025, 1,  1, overlap,     1025
			2048,    0,    0,  1, parallelism, 0
			2048,    0,    33, 1, parallelism, 33
			2048,    0,    1,  0, max-windows, 0
			""")
	void refusesValuesOutsideTheirRangeNamingTheSetting(int size, int overlap, int parallelism, int maxWindows,
			String setting, int value) {
		assertThatExceptionOfType(InvalidSettingException.class)
			.isThrownBy(() -> new WindowSettings(size, overlap, parallelism, maxWindows))
			.satisfies((ex) -> {
				assertThat(ex.setting()).isEqualTo(setting);
				assertThat(ex.value()).isEqualTo(value);
				assertThat(ex.getMessage()).startsWith(setting + " must be").endsWith(" but was " + value);
				if (setting.equals("overlap")) {
					assertThat(ex.reason()).contains("half of size (1024 bytes)");
				}
			});
	}

}
