package dev.modelarmor.auth;

import java.time.Clock;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Date;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import com.google.auth.oauth2.AccessToken;
import com.google.auth.oauth2.OAuth2Credentials;
import dev.modelarmor.internal.ModelArmorThreads;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Keeps an access token ready before any call needs it: fetches the first one as soon as it starts,
 * and a new one once the current one expires within {@link #REFRESH_AHEAD}, on a daemon thread of its
 * own.
 *
 * <p>Why: google-auth refreshes a token in the background only when a call comes in during the 45 s
 * before it counts the token as expired (3 minutes before its expiry); after that, the next caller
 * waits for a new token. An application idle across that window would make its next caller wait,
 * and a stalled token endpoint would fail that call. Refreshing five minutes ahead, on this thread,
 * keeps callers on a valid token while the token endpoint is slow or down for minutes.
 *
 * <p>The refresh is google-auth's own, so it is shared with any caller that needs a token at the same
 * moment. A failed refresh keeps the current token (still valid until it expires) and is tried again at
 * the next check; the first failure logs one WARN line, a later success one INFO line. A token that
 * lives less than five minutes is replaced at every check.
 */
final class TokenRefresher implements AutoCloseable {

	/** How long before its expiry a token is replaced: ahead of google-auth's own 3 min 45 s. */
	static final Duration REFRESH_AHEAD = Duration.ofMinutes(5);

	/** How often the token's expiry is checked. */
	static final Duration CHECK_EVERY = Duration.ofSeconds(30);

	private static final Log logger = LogFactory.getLog(TokenRefresher.class);

	private final OAuth2Credentials credentials;

	private final Clock clock;

	private final ScheduledExecutorService scheduler;

	private volatile boolean failing;

	private TokenRefresher(OAuth2Credentials credentials, Clock clock, ModelArmorThreads threads) {
		this.credentials = credentials;
		this.clock = clock;
		this.scheduler = threads.timer("token-refresh", ModelArmorThreads.Work.WAITS);
	}

	/**
	 * Starts checking at once, then every {@code checkEvery} after the end of the previous check.
	 * @param credentials the credentials whose token to keep fresh
	 * @param clock tells the time that token expiries are compared with
	 * @param checkEvery the pause between checks
	 * @return the running refresher
	 */
	static TokenRefresher start(OAuth2Credentials credentials, Clock clock, Duration checkEvery) {
		return start(credentials, clock, checkEvery, ModelArmorThreads.platform());
	}

	/**
	 * Starts checking at once, then every {@code checkEvery} after the end of the previous check.
	 * @param credentials the credentials whose token to keep fresh
	 * @param clock tells the time that token expiries are compared with
	 * @param checkEvery the pause between checks
	 * @param threads makes the refresher's thread
	 * @return the running refresher
	 */
	static TokenRefresher start(OAuth2Credentials credentials, Clock clock, Duration checkEvery,
			ModelArmorThreads threads) {
		TokenRefresher refresher = new TokenRefresher(credentials, clock, threads);
		refresher.scheduler.scheduleWithFixedDelay(refresher::refreshIfDue, 0, checkEvery.toNanos(),
				TimeUnit.NANOSECONDS);
		return refresher;
	}

	/**
	 * One check: fetches a token when there is none, or a new one when the current one expires within
	 * {@link #REFRESH_AHEAD}. Never throws, so that the schedule goes on.
	 */
	void refreshIfDue() {
		AccessToken token = this.credentials.getAccessToken();
		if (token != null && !expiresSoon(token)) {
			return;
		}
		try {
			if (token == null) {
				// Only while still missing: a token that a caller fetched meanwhile is not fetched again.
				this.credentials.refreshIfExpired();
			}
			else {
				this.credentials.refresh();
			}
			if (this.failing) {
				this.failing = false;
				logger.info("Model Armor access token refreshed in the background again: expiresIn="
						+ expiresIn(this.credentials.getAccessToken()));
			}
		}
		catch (Exception ex) {
			if (!this.failing && !this.scheduler.isShutdown()) {
				this.failing = true;
				logger.warn("Model Armor access token could not be refreshed in the background, trying again: "
						+ "failure=" + ex.getClass().getSimpleName() + " expiresIn=" + expiresIn(token));
			}
		}
	}

	private boolean expiresSoon(AccessToken token) {
		Date expiry = token.getExpirationTime();
		return expiry != null
				&& Duration.between(this.clock.instant(), expiry.toInstant()).compareTo(REFRESH_AHEAD) <= 0;
	}

	/** For log lines: the time until the token expires, {@code never} or {@code no_token}. */
	private String expiresIn(@Nullable AccessToken token) {
		if (token == null) {
			return "no_token";
		}
		Date expiry = token.getExpirationTime();
		return (expiry != null)
				? Duration.between(this.clock.instant(), expiry.toInstant()).truncatedTo(ChronoUnit.SECONDS).toString()
				: "never";
	}

	/**
	 * Stops checking; a refresh under way is interrupted.
	 */
	@Override
	public void close() {
		this.scheduler.shutdownNow();
	}

}
