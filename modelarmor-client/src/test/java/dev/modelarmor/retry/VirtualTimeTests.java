package dev.modelarmor.retry;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class VirtualTimeTests {

	private final VirtualTime time = new VirtualTime(Instant.parse("2030-05-01T12:00:00Z"));

	@Test
	void sleepAdvancesTheClockAndRecordsTheWait() {
		this.time.sleep(1_500);
		this.time.sleep(0);
		this.time.sleep(2_000);
		assertThat(this.time.instant()).isEqualTo(Instant.parse("2030-05-01T12:00:03.500Z"));
		assertThat(this.time.millis()).isEqualTo(Instant.parse("2030-05-01T12:00:03.500Z").toEpochMilli());
		assertThat(this.time.sleeps()).containsExactly(Duration.ofMillis(1_500), Duration.ZERO,
				Duration.ofSeconds(2));
		assertThat(this.time.totalSlept()).isEqualTo(Duration.ofMillis(3_500));
	}

	@Test
	void advanceMovesTheClockWithoutRecordingAWait() {
		this.time.advance(Duration.ofSeconds(90));
		assertThat(this.time.instant()).isEqualTo(Instant.parse("2030-05-01T12:01:30Z"));
		assertThat(this.time.sleeps()).isEmpty();
	}

	@Test
	void timeNeverGoesBackwards() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.time.advance(Duration.ofMillis(-1)));
		assertThatIllegalArgumentException().isThrownBy(() -> this.time.sleep(-1));
		assertThat(this.time.instant()).isEqualTo(Instant.parse("2030-05-01T12:00:00Z"));
	}

	@Test
	void sleepsAreASnapshot() {
		var before = this.time.sleeps();
		this.time.sleep(10);
		assertThat(before).isEmpty();
	}

	@Test
	void clockInAnotherZoneTellsTheSameVirtualTime() {
		var paris = this.time.withZone(ZoneId.of("Europe/Paris"));
		this.time.advance(Duration.ofMinutes(5));
		assertThat(paris.getZone()).isEqualTo(ZoneId.of("Europe/Paris"));
		assertThat(paris.instant()).isEqualTo(this.time.instant());
	}

	@Test
	void runtimeUsesThisTimeAsClockAndSleeper() {
		SplittableRandom random = new SplittableRandom(1);
		RetryRuntime runtime = this.time.runtime(random);
		assertThat(runtime.clock()).isSameAs(this.time);
		assertThat(runtime.sleeper()).isSameAs(this.time);
		assertThat(runtime.random()).isSameAs(random);
	}

}
