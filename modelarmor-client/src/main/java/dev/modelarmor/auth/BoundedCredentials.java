package dev.modelarmor.auth;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import com.google.auth.Credentials;
import com.google.auth.RequestMetadataCallback;
import dev.modelarmor.internal.ModelArmorThreads;
import dev.modelarmor.retry.TokenUnavailableException;
import org.jspecify.annotations.Nullable;

/**
 * Asks credentials for request metadata, and for a refresh, without waiting longer than the caller
 * allows. google-auth fetches a token with its own 20 s HTTP timeout and three retries, so a token
 * endpoint that accepts the connection and never answers would hold a caller for well over a minute.
 *
 * <p>Metadata comes through the asynchronous
 * {@link Credentials#getRequestMetadata(URI, java.util.concurrent.Executor, RequestMetadataCallback)}:
 * with OAuth2 credentials a fresh token is answered on the calling thread, a stale one is answered at
 * once while it is refreshed on this class's executor, and a missing or expired one is fetched there,
 * concurrent callers sharing one fetch (google-auth's own single-flight refresh). The caller waits for
 * the answer at most its limit. A forced refresh (after Model Armor refused a token) runs on the
 * executor too; concurrent callers share one.
 *
 * <p>The executor runs at most {@link #MAX_THREADS} daemon threads, ended when idle, with at most
 * {@link #MAX_WAITING} fetches queued; a fetch beyond that fails its caller at once with a
 * {@link TokenUnavailableException} saying so, as does every fetch after {@link #close()}, which stops the
 * threads.
 */
final class BoundedCredentials implements AutoCloseable {

	/**
	 * The most token fetches running at once: google-auth shares one fetch among concurrent callers and a
	 * forced refresh is shared here, so two threads cover a fetch and a refresh under way together.
	 */
	static final int MAX_THREADS = 2;

	/** Fetches waiting for a thread beyond those running; one more is refused, failing its caller at once. */
	static final int MAX_WAITING = 16;

	private static final Duration IDLE_THREAD_KEEP_ALIVE = Duration.ofSeconds(30);

	private final Credentials credentials;

	private final ThreadPoolExecutor executor;

	private static final String METADATA = "Could not obtain a Google access token for the Model Armor call";

	private static final String REFRESH = "Could not refresh the Google access token refused by Model Armor";

	private final Object refreshLock = new Object();

	private @Nullable CompletableFuture<Void> refresh;

	BoundedCredentials(Credentials credentials) {
		this(credentials, ModelArmorThreads.platform());
	}

	BoundedCredentials(Credentials credentials, ModelArmorThreads threads) {
		this.credentials = credentials;
		this.executor = threads.pool("token", ModelArmorThreads.Work.WAITS, MAX_THREADS,
				new ArrayBlockingQueue<>(MAX_WAITING), IDLE_THREAD_KEEP_ALIVE, (task, executor) -> {
					throw new RejectedExecutionException(executor.isShutdown() ? "closed"
							: "the token executor is saturated (" + MAX_THREADS + " fetches running, " + MAX_WAITING
									+ " waiting)");
				});
	}

	/**
	 * The request metadata ({@code Authorization} and friends), waiting for a token at most {@code limit}.
	 * @param uri the request's URI
	 * @param limit the longest wait; zero still takes a token that is at hand
	 * @return the headers to add
	 * @throws TokenUnavailableException when no token came within the limit, or fetching it failed
	 */
	Map<String, List<String>> requestMetadata(URI uri, Duration limit) throws TokenUnavailableException {
		failIfClosed(METADATA);
		return await(metadata(uri), limit, METADATA);
	}

	/**
	 * The request metadata as a future, for callers that must not wait: at once with a token at hand, else
	 * once fetched, failing with a {@link TokenUnavailableException} as {@link #requestMetadata} throws one.
	 * @param uri the request's URI
	 * @param limit the longest the fetch may take
	 * @return the headers to add
	 */
	CompletableFuture<Map<String, List<String>>> requestMetadataAsync(URI uri, Duration limit) {
		try {
			failIfClosed(METADATA);
		}
		catch (TokenUnavailableException ex) {
			return CompletableFuture.failedFuture(ex);
		}
		return bounded(metadata(uri), limit, METADATA);
	}

	private CompletableFuture<Map<String, List<String>>> metadata(URI uri) {
		CompletableFuture<Map<String, List<String>>> metadata = new CompletableFuture<>();
		try {
			this.credentials.getRequestMetadata(uri, this.executor, new RequestMetadataCallback() {

				@Override
				public void onSuccess(Map<String, List<String>> headers) {
					metadata.complete(headers);
				}

				@Override
				public void onFailure(Throwable failure) {
					metadata.completeExceptionally(failure);
				}

			});
		}
		catch (RejectedExecutionException ex) {
			metadata.completeExceptionally(ex);
		}
		return metadata;
	}

	/**
	 * Fetches a new token, whatever the state of the current one, waiting at most {@code limit}. A
	 * refresh already under way is joined rather than doubled.
	 * @param limit the longest wait
	 * @throws TokenUnavailableException when the refresh did not end within the limit, or failed
	 */
	void refresh(Duration limit) throws TokenUnavailableException {
		failIfClosed(REFRESH);
		await(sharedRefresh(), limit, REFRESH);
	}

	/**
	 * Fetches a new token as {@link #refresh} does, as a future that no caller waits on.
	 * @param limit the longest the refresh may take
	 * @return done once refreshed, or failed with a {@link TokenUnavailableException}
	 */
	CompletableFuture<Void> refreshAsync(Duration limit) {
		try {
			failIfClosed(REFRESH);
		}
		catch (TokenUnavailableException ex) {
			return CompletableFuture.failedFuture(ex);
		}
		return bounded(sharedRefresh(), limit, REFRESH);
	}

	private CompletableFuture<Void> sharedRefresh() {
		synchronized (this.refreshLock) {
			CompletableFuture<Void> shared = this.refresh;
			if (shared == null || shared.isDone()) {
				shared = startRefresh();
				this.refresh = shared;
			}
			return shared;
		}
	}

	/** After {@link #close()}, even a refresh still under way is not waited for. */
	private void failIfClosed(String what) throws TokenUnavailableException {
		if (this.executor.isShutdown()) {
			throw new TokenUnavailableException(what + ": the credentials interceptor is closed",
					new RejectedExecutionException("closed"));
		}
	}

	private CompletableFuture<Void> startRefresh() {
		try {
			return CompletableFuture.runAsync(() -> {
				try {
					this.credentials.refresh();
				}
				catch (java.io.IOException ex) {
					throw new CompletionException(ex);
				}
			}, this.executor);
		}
		catch (RejectedExecutionException ex) {
			return CompletableFuture.failedFuture(ex);
		}
	}

	private static <T> T await(CompletableFuture<T> future, Duration limit, String what)
			throws TokenUnavailableException {
		try {
			return future.get(nanos(limit), TimeUnit.NANOSECONDS);
		}
		catch (TimeoutException ex) {
			throw unavailable(ex, limit, what);
		}
		catch (ExecutionException ex) {
			throw unavailable((ex.getCause() != null) ? ex.getCause() : ex, limit, what);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new TokenUnavailableException(what + " (InterruptedException)", ex);
		}
	}

	/**
	 * The future bounded by the limit without a thread waiting on it; cancelling the result leaves the shared
	 * fetch alone.
	 */
	private static <T> CompletableFuture<T> bounded(CompletableFuture<T> future, Duration limit, String what) {
		CompletableFuture<T> result = new CompletableFuture<>();
		future.whenComplete((value, failure) -> {
			if (failure == null) {
				result.complete(value);
			}
			else {
				result.completeExceptionally(unavailable(
						(failure instanceof CompletionException && failure.getCause() != null) ? failure.getCause() : failure,
						limit, what));
			}
		});
		if (!result.isDone()) {
			// the JDK's own delay thread, its task dropped once the result is in
			CompletableFuture<Void> timer = new CompletableFuture<Void>().orTimeout(nanos(limit), TimeUnit.NANOSECONDS);
			timer.whenComplete((none, timeout) -> {
				if (timeout instanceof TimeoutException) {
					result.completeExceptionally(unavailable(timeout, limit, what));
				}
			});
			result.whenComplete((value, failure) -> timer.complete(null));
		}
		return result;
	}

	/** Why no token came, in words without any secret. */
	private static TokenUnavailableException unavailable(Throwable cause, Duration limit, String what) {
		if (cause instanceof TokenUnavailableException unavailable) {
			return unavailable;
		}
		if (cause instanceof TimeoutException) {
			return new TokenUnavailableException(what + " within " + limit.toMillis()
					+ " ms (TimeoutException); check that the token endpoint is reachable", cause);
		}
		if (cause instanceof RejectedExecutionException rejected) {
			// our own message, never the token endpoint's: safe to quote
			return new TokenUnavailableException(what + ": " + rejected.getMessage(), cause);
		}
		// google-auth's message may quote the token endpoint's answer: kept in the cause, not in ours.
		return new TokenUnavailableException(what + " (" + cause.getClass().getSimpleName()
				+ "); check the credentials and that the token endpoint is reachable", cause);
	}

	private static long nanos(Duration limit) {
		if (limit.isNegative()) {
			return 0;
		}
		try {
			return limit.toNanos();
		}
		catch (ArithmeticException ex) {
			return Long.MAX_VALUE;
		}
	}

	/** Fetches running or queued on the executor, for tests. */
	int pendingFetches() {
		return this.executor.getActiveCount() + this.executor.getQueue().size();
	}

	/**
	 * Stops the executor; a fetch still under way is interrupted, and every later request fails at once.
	 */
	@Override
	public void close() {
		this.executor.shutdownNow();
	}

}
