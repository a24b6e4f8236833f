package dev.modelarmor.retry;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RetryDeadlineTests {

	private final VirtualTime time = new VirtualTime();

	@Test
	void expiresTheBudgetAfterItStarts() {
		RetryDeadline deadline = RetryDeadline.startingNow(this.time, Duration.ofSeconds(60));
		assertThat(deadline.expiry()).isEqualTo(VirtualTime.DEFAULT_START.plusSeconds(60));
		assertThat(deadline.remaining()).isEqualTo(Duration.ofSeconds(60));
	}

	@Test
	void remainingShrinksAsTimePasses() {
		RetryDeadline deadline = RetryDeadline.startingNow(this.time, Duration.ofSeconds(60));
		this.time.advance(Duration.ofMillis(12_345));
		assertThat(deadline.remaining()).isEqualTo(Duration.ofMillis(47_655));
	}

	@Test
	void remainingIsZeroAtExpiryAndNeverNegativeAfterIt() {
		RetryDeadline deadline = RetryDeadline.startingNow(this.time, Duration.ofSeconds(1));
		this.time.advance(Duration.ofSeconds(1));
		assertThat(deadline.remaining()).isZero();
		this.time.advance(Duration.ofMillis(1));
		assertThat(deadline.remaining()).isZero();
		this.time.advance(Duration.ofDays(3));
		assertThat(deadline.remaining()).isZero();
	}

	@Test
	void waitEndingExactlyAtExpiryFits() {
		RetryDeadline deadline = RetryDeadline.startingNow(this.time, Duration.ofSeconds(60));
		this.time.advance(Duration.ofSeconds(28));
		assertThat(deadline.fits(Duration.ofSeconds(32))).isTrue();
	}

	@Test
	void waitEndingOneMillisecondAfterExpiryDoesNotFit() {
		RetryDeadline deadline = RetryDeadline.startingNow(this.time, Duration.ofSeconds(60));
		this.time.advance(Duration.ofSeconds(28));
		assertThat(deadline.fits(Duration.ofMillis(32_001))).isFalse();
	}

	@Test
	void noWaitFitsOnceExpired() {
		RetryDeadline deadline = RetryDeadline.startingNow(this.time, Duration.ofSeconds(1));
		this.time.advance(Duration.ofMillis(1_001));
		assertThat(deadline.fits(Duration.ZERO)).isFalse();
	}

	@Test
	void zeroWaitFitsAtExpiry() {
		RetryDeadline deadline = RetryDeadline.startingNow(this.time, Duration.ofSeconds(1));
		this.time.advance(Duration.ofSeconds(1));
		assertThat(deadline.fits(Duration.ZERO)).isTrue();
	}

}
