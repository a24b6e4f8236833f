package dev.modelarmor.retry;

import dev.modelarmor.retry.internal.RetryAfterHints;

import java.time.Duration;
import java.time.Instant;

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

	@Test
	void aWaitTooLongForAnyClockDoesNotFitAndDoesNotOverflow() {
		RetryDeadline deadline = RetryDeadline.startingNow(this.time, RetrySettings.MAX_DEADLINE);
		Duration longest = Duration.ofSeconds(Long.MAX_VALUE, 999_999_999);
		assertThat(deadline.fits(longest)).isFalse();
		assertThat(deadline.fits(RetryAfterHints.TOO_LONG)).isFalse();
		assertThat(deadline.fits(RetrySettings.MAX_DEADLINE)).isTrue();
	}

	@Test
	void aBudgetEndingPastTheEndOfTimeEndsAtIt() {
		VirtualTime late = new VirtualTime(Instant.MAX.minusSeconds(10));
		RetryDeadline deadline = RetryDeadline.startingNow(late, Duration.ofSeconds(60));
		assertThat(deadline.expiry()).isEqualTo(Instant.MAX);
		assertThat(deadline.remaining()).isEqualTo(Duration.between(late.instant(), Instant.MAX));
		assertThat(deadline.fits(Duration.ofSeconds(10))).isTrue();
		assertThat(deadline.fits(Duration.ofSeconds(11))).isFalse();
		assertThat(deadline.fits(Duration.ofSeconds(Long.MAX_VALUE))).isFalse();
	}

	@Test
	void aBudgetEndingAtTheEndOfTimeIsKeptExactly() {
		VirtualTime late = new VirtualTime(Instant.MAX.minusSeconds(60));
		assertThat(RetryDeadline.startingNow(late, Duration.ofSeconds(60)).expiry()).isEqualTo(Instant.MAX);
		assertThat(RetryDeadline.startingNow(late, Duration.ofSeconds(59)).expiry())
			.isEqualTo(Instant.MAX.minusSeconds(1));
	}

	@Test
	void aNegativeBudgetBeforeTheStartOfTimeEndsAtIt() {
		VirtualTime early = new VirtualTime(Instant.MIN.plusSeconds(10));
		assertThat(RetryDeadline.startingNow(early, Duration.ofSeconds(-60)).expiry()).isEqualTo(Instant.MIN);
		assertThat(RetryDeadline.startingNow(early, Duration.ofSeconds(-10)).expiry()).isEqualTo(Instant.MIN);
		assertThat(RetryDeadline.startingNow(early, Duration.ofSeconds(-9)).expiry())
			.isEqualTo(Instant.MIN.plusSeconds(1));
	}

}
