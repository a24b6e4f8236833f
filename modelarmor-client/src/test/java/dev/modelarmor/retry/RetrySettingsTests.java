package dev.modelarmor.retry;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RetrySettingsTests {

	@ParameterizedTest
	@ValueSource(longs = { 0, -1, -60_000 })
	void deadlineThatIsNotPositiveIsRejected(long millis) {
		Duration deadline = Duration.ofMillis(millis);
		assertThatThrownBy(() -> new RetrySettings(BackoffSchedule.GOOGLE_DEFAULT, deadline, true, true))
			.isInstanceOfSatisfying(InvalidSettingException.class, (ex) -> {
				assertThat(ex.setting()).isEqualTo("deadline");
				assertThat(ex.value()).isEqualTo(deadline);
			});
	}

	@Test
	void smallestPositiveDeadlineIsAccepted() {
		assertThat(new RetrySettings(BackoffSchedule.GOOGLE_DEFAULT, Duration.ofNanos(1), true, true).deadline())
			.isEqualTo(Duration.ofNanos(1));
	}

	@Test
	void defaultsAreGooglesRecommendation() {
		RetrySettings defaults = RetrySettings.DEFAULTS;
		assertThat(defaults.schedule().initialBackoff()).isEqualTo(Duration.ofSeconds(1));
		assertThat(defaults.schedule().jitter()).isEqualTo(Duration.ofSeconds(1));
		assertThat(defaults.schedule().maxBackoff()).isEqualTo(Duration.ofSeconds(32));
		assertThat(defaults.deadline()).isEqualTo(Duration.ofSeconds(60));
		assertThat(defaults.retryTooManyRequests()).isTrue();
		assertThat(defaults.honorRetryAfter()).isTrue();
		assertThat(defaults.schedule()).isEqualTo(BackoffSchedule.GOOGLE_DEFAULT);
	}

	@Test
	void theLongestDeadlineIsADayAndOneNanosecondMoreIsRejected() {
		assertThat(new RetrySettings(BackoffSchedule.GOOGLE_DEFAULT, Duration.ofDays(1), true, true).deadline())
			.isEqualTo(RetrySettings.MAX_DEADLINE);
		Duration tooLong = RetrySettings.MAX_DEADLINE.plusNanos(1);
		assertThatThrownBy(() -> new RetrySettings(BackoffSchedule.GOOGLE_DEFAULT, tooLong, true, true))
			.isInstanceOfSatisfying(InvalidSettingException.class, (ex) -> {
				assertThat(ex.setting()).isEqualTo("deadline");
				assertThat(ex.value()).isEqualTo(tooLong);
				assertThat(ex.reason()).isEqualTo("must not be longer than 24h");
			});
	}

}
