package dev.modelarmor.client.internal.transport;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import dev.modelarmor.client.HttpTimeouts;
import dev.modelarmor.client.ModelArmorException;
import dev.modelarmor.retry.RetryDeadline;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.boot.http.client.JdkHttpClientBuilder;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.client.ClientHttpRequest;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.ClientHttpResponse;

/**
 * Creates requests on one JDK {@link HttpClient} built by Spring Boot's {@link JdkHttpClientBuilder} from
 * the {@link HttpClientSettings} given (connect timeout, SSL bundle, and what else the Boot version maps),
 * except that redirects are never followed: a redirected sanitize call would be a verdict from another
 * server. Each request's read timeout is the configured one or, when shorter, what is left of the retry
 * deadline that the request carries ({@link RequestDeadline}) when it is
 * executed: an attempt never outlives the deadline. Bodies go to the wire as one {@code byte[]} of known
 * length ({@link BufferedJdkClientHttpRequest}).
 *
 * <p>At most {@link #MAX_EXCHANGES_IN_FLIGHT} exchanges to each location run at once, on at most {@link #MAX_THREADS}
 * threads of the client's executor, and one thread ends answers that come too slowly
 * ({@link AnswerDeadlines}). {@link #close()} closes the client (on Java 21 and later, where
 * {@link HttpClient} can be closed) and its executor; a request created afterwards fails at once with a {@link ModelArmorException}, which is not
 * retried.
 */
public final class DeadlineBoundedRequestFactory implements ClientHttpRequestFactory, AutoCloseable {

	/**
	 * The most exchanges in flight at once on one client; a request that finds them all taken waits for one
	 * to end at most its own timeout, then fails as an I/O failure. Every exchange holds a connection, so this
	 * also bounds the connections; it is far above what a quota of Model Armor queries per minute lets one
	 * application send at once.
	 */
	public static final int MAX_EXCHANGES_IN_FLIGHT = 256;

	/**
	 * The most threads running the client's work. That work only hands bytes on and completes futures (the
	 * calling thread waits in {@code send}, and bodies are byte arrays), so a few threads per core keep up
	 * with every exchange in flight.
	 */
	public static final int MAX_THREADS = Math.max(4, 2 * Runtime.getRuntime().availableProcessors());

	/**
	 * Whether the JDK client's {@code sendAsync} would hand each completion to a new thread: it completes its
	 * future through {@code CompletableFuture}'s default executor, which up to Java 24 is a new platform thread
	 * per task when the common pool has a parallelism of 1 (machines of two cores or fewer), a thread start
	 * that measured more than half of the non-blocking path's CPU per call there.
	 */
	public static final boolean HANDS_OFF_TO_A_NEW_THREAD = !(new CompletableFuture<Void>()
		.defaultExecutor() instanceof java.util.concurrent.ForkJoinPool);

	private static final long IDLE_THREAD_KEEP_ALIVE_SECONDS = 30;

	private static final AtomicInteger threads = new AtomicInteger();

	/**
	 * Runs the client's work off its selector thread: at most {@link #MAX_THREADS} daemon threads named after
	 * the starter, reused across requests and ended when idle. Its queue never refuses a task while the client
	 * is open, because the JDK client stops altogether when its executor refuses one: what bounds the queue is
	 * {@link #slotsByLocation}. Request bodies are handed over as byte arrays
	 * ({@link BufferedJdkClientHttpRequest}), without a thread of their own.
	 */
	private final ThreadPoolExecutor executor;

	/**
	 * The exchange slots of each location (the {@code locations/{location}} of the request's path, else its
	 * host): a location that hangs holds its own slots only, never those of the calls to another.
	 */
	private final ConcurrentHashMap<String, ExchangeSlots> slotsByLocation = new ConcurrentHashMap<>();

	/** More locations than Google has: beyond them, requests share one set of slots. */
	public static final int MAX_LOCATIONS = 256;

	private final AnswerDeadlines answerDeadlines = new AnswerDeadlines();

	private final HttpClient httpClient;

	private final Duration readTimeout;

	/**
	 * Where the non-blocking path's exchanges wait when the JDK would start a thread per completion
	 * ({@link #HANDS_OFF_TO_A_NEW_THREAD}): at most {@link #MAX_EXCHANGES_IN_FLIGHT} daemon threads, each in the
	 * JDK client's blocking {@code send} of one exchange, reused and ended when idle. {@code null} where
	 * {@code sendAsync} hands its completions to a pool.
	 */
	private final @Nullable ThreadPoolExecutor exchangeThreads;

	private volatile boolean closed;

	/**
	 * Creates the factory and its client.
	 * @param settings Spring Boot's HTTP client settings; their read timeout and redirects are not used
	 * @param timeouts the connect timeout of the client and the read timeout of each request
	 */
	public DeadlineBoundedRequestFactory(HttpClientSettings settings, HttpTimeouts timeouts) {
		this.executor = new ThreadPoolExecutor(MAX_THREADS, MAX_THREADS, IDLE_THREAD_KEEP_ALIVE_SECONDS,
				TimeUnit.SECONDS, new LinkedBlockingQueue<>(), (task) -> {
					Thread thread = new Thread(task, "modelarmor-http-" + threads.incrementAndGet());
					thread.setDaemon(true);
					return thread;
				});
		this.executor.allowCoreThreadTimeOut(true);
		this.exchangeThreads = HANDS_OFF_TO_A_NEW_THREAD ? exchangeThreads() : null;
		// Boot's builder refuses a read timeout: the JDK client has none, each request carries its own.
		this.httpClient = new JdkHttpClientBuilder().withExecutor(this.executor)
			.withCustomizer((builder) -> builder.followRedirects(HttpClient.Redirect.NEVER))
			.build(settings.withTimeouts(timeouts.connect(), null));
		this.readTimeout = timeouts.read();
	}

	/**
	 * Creates the factory and its client without Spring Boot's settings beyond the timeouts.
	 * @param timeouts the connect timeout of the client and the read timeout of each request
	 */
	public DeadlineBoundedRequestFactory(HttpTimeouts timeouts) {
		this(HttpClientSettings.defaults(), timeouts);
	}

	@Override
	public ClientHttpRequest createRequest(URI uri, HttpMethod httpMethod) throws IOException {
		if (this.closed) {
			// not an I/O failure, which would be retried: a closed client stays closed
			throw closed();
		}
		return new BufferedJdkClientHttpRequest(this.httpClient, this.answerDeadlines, exchangeSlots(uri), uri,
				httpMethod, this.readTimeout);
	}

	/**
	 * The non-blocking path's exchange, on the same client, slots and answer deadlines as a request of
	 * {@link #createRequest}: no thread waits for the slot, the answer or its last byte. Cancelling the
	 * future cancels the exchange.
	 * @param uri the URI
	 * @param method the method
	 * @param headers the headers, those the JDK client sets itself left out
	 * @param body the body, empty for none
	 * @param deadline the call's deadline, which the read timeout never outlasts, or {@code null}
	 * @return the whole answer, or an {@link IOException} (a {@link java.net.http.HttpTimeoutException} when
	 * it did not come in time), or a {@link ModelArmorException} once the client is closed
	 */
	public CompletableFuture<ClientHttpResponse> exchangeAsync(URI uri, HttpMethod method, HttpHeaders headers, byte[] body,
			@Nullable RetryDeadline deadline) {
		if (this.closed) {
			return CompletableFuture.failedFuture(closed());
		}
		Duration timeout = BufferedJdkClientHttpRequest.timeout(this.readTimeout, deadline);
		long deadlineNanos = System.nanoTime() + timeout.toNanos();
		CompletableFuture<ClientHttpResponse> answer = new CompletableFuture<>();
		ExchangeSlots slots = exchangeSlots(uri);
		CompletableFuture<Void> slot = slots.acquireAsync(timeout);
		answer.whenComplete((done, failure) -> {
			if (answer.isCancelled()) {
				slot.cancel(false);
			}
		});
		slot.whenComplete((held, noSlot) -> {
			if (noSlot != null) {
				answer.completeExceptionally((noSlot instanceof TimeoutException)
						? BufferedJdkClientHttpRequest.noSlot(timeout) : noSlot);
				return;
			}
			if (answer.isDone()) {
				slots.release();
				return;
			}
			send(BufferedJdkClientHttpRequest.jdkRequest(uri, method, headers, body, deadlineNanos), deadlineNanos,
					answer, slots);
		});
		return answer;
	}

	/**
	 * Sends an exchange that holds a slot, which it gives back when it ends: the JDK client's
	 * {@code sendAsync}, or its {@code send} on one of the {@link #exchangeThreads} where {@code sendAsync}
	 * would start a thread per completion.
	 */
	private void send(java.net.http.HttpRequest request, long deadlineNanos,
			CompletableFuture<ClientHttpResponse> answer, ExchangeSlots slots) {
		ThreadPoolExecutor exchangeThreads = this.exchangeThreads;
		if (exchangeThreads != null) {
			sendOnAThreadOfItsOwn(exchangeThreads, request, deadlineNanos, answer, slots);
			return;
		}
		CompletableFuture<java.net.http.HttpResponse<byte[]>> sent;
		try {
			sent = this.httpClient.sendAsync(request,
					BufferedJdkClientHttpRequest.answerFor(deadlineNanos, this.answerDeadlines));
		}
		catch (RuntimeException ex) {
			slots.release();
			answer.completeExceptionally(ex);
			return;
		}
		sent.whenComplete((response, failure) -> {
			slots.release();
			if (failure == null) {
				answer.complete(new BufferedJdkClientHttpRequest.Response(response));
			}
			else {
				Throwable cause = (failure instanceof CompletionException && failure.getCause() != null)
						? failure.getCause() : failure;
				answer.completeExceptionally(BufferedJdkClientHttpRequest.sameShape(cause));
			}
		});
		answer.whenComplete((done, failure) -> {
			if (answer.isCancelled()) {
				sent.cancel(true);
			}
		});
	}

	private void sendOnAThreadOfItsOwn(ThreadPoolExecutor exchangeThreads, java.net.http.HttpRequest request,
			long deadlineNanos, CompletableFuture<ClientHttpResponse> answer, ExchangeSlots slots) {
		AtomicReference<@Nullable Thread> sending = new AtomicReference<>();
		Runnable exchange = () -> {
			sending.set(Thread.currentThread());
			try {
				if (!answer.isDone()) {
					answer.complete(new BufferedJdkClientHttpRequest.Response(this.httpClient.send(request,
							BufferedJdkClientHttpRequest.answerFor(deadlineNanos, this.answerDeadlines))));
				}
			}
			catch (IOException ex) {
				answer.completeExceptionally(BufferedJdkClientHttpRequest.sameShape(ex));
			}
			catch (InterruptedException ex) {
				// a cancelled call interrupts its exchange, which the JDK client then aborts
				answer.completeExceptionally(new IOException("Request was interrupted: the call was cancelled", ex));
			}
			catch (RuntimeException ex) {
				answer.completeExceptionally(ex);
			}
			finally {
				sending.set(null);
				Thread.interrupted();
				slots.release();
			}
		};
		answer.whenComplete((done, failure) -> {
			Thread thread = sending.get();
			if (answer.isCancelled() && thread != null) {
				thread.interrupt();
			}
		});
		try {
			exchangeThreads.execute(exchange);
		}
		catch (RuntimeException ex) {
			slots.release();
			answer.completeExceptionally(ex);
		}
	}

	/**
	 * A thread per exchange in flight, reused while the exchanges follow one another and ended after idling;
	 * a new one only when every thread is busy. The slots bound the exchanges in flight; the threads may
	 * number twice as many for a moment, while ending exchanges (their slot given back) return to the pool.
	 */
	private static ThreadPoolExecutor exchangeThreads() {
		return new ThreadPoolExecutor(0, 2 * MAX_EXCHANGES_IN_FLIGHT, IDLE_THREAD_KEEP_ALIVE_SECONDS, TimeUnit.SECONDS,
				new SynchronousQueue<>(), (task) -> {
					Thread thread = new Thread(task, "modelarmor-exchange-" + threads.incrementAndGet());
					thread.setDaemon(true);
					return thread;
				});
	}

	private static ModelArmorException closed() {
		return new ModelArmorException("The Model Armor HTTP client is closed: the template was closed, "
				+ "or the application context that made it");
	}

	/**
	 * The exchange slots of the location a request goes to.
	 * @param uri the request's URI
	 * @return the slots of the location its path names, else of its host
	 */
	public ExchangeSlots exchangeSlots(URI uri) {
		String key = locationOf(uri);
		ExchangeSlots slots = this.slotsByLocation.get(key);
		if (slots != null) {
			return slots;
		}
		return this.slotsByLocation.computeIfAbsent(
				(this.slotsByLocation.size() < MAX_LOCATIONS) ? key : "other",
				(location) -> new ExchangeSlots(MAX_EXCHANGES_IN_FLIGHT));
	}

	/** The segment after {@code /locations/} in the path, else the host. */
	private static String locationOf(URI uri) {
		String path = uri.getRawPath();
		if (path != null) {
			int at = path.indexOf("/locations/");
			if (at >= 0) {
				int from = at + "/locations/".length();
				int to = path.indexOf('/', from);
				return path.substring(from, (to < 0) ? path.length() : to);
			}
		}
		String host = uri.getHost();
		return (host != null) ? host : "none";
	}

	/** The JDK client, for tests. */
	public HttpClient httpClient() {
		return this.httpClient;
	}

	/** Whether the executor has stopped and its threads have ended, for tests. */
	public boolean isTerminated() {
		return this.executor.isTerminated();
	}

	/** The executor, for tests. */
	public ThreadPoolExecutor executor() {
		return this.executor;
	}

	/** The watcher of answer deadlines, for tests. */
	public AnswerDeadlines answerDeadlines() {
		return this.answerDeadlines;
	}

	/**
	 * Closes the client, then its executor. On Java 21 and later, closing the client waits for the exchanges
	 * in flight, each bounded by its read timeout; on Java 17, which cannot close a client, its selector
	 * thread ends once the client is no longer referenced.
	 */
	@Override
	public void close() {
		if (this.closed) {
			return;
		}
		this.closed = true;
		if (this.httpClient instanceof AutoCloseable closeable) {
			try {
				closeable.close();
			}
			catch (Exception ex) {
				// closing is best effort: the executor below is shut down either way
			}
		}
		this.executor.shutdown();
		if (this.exchangeThreads != null) {
			this.exchangeThreads.shutdown();
		}
		this.answerDeadlines.close();
	}

}
