package dev.modelarmor.client.internal.transport;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import dev.modelarmor.retry.RetryDeadline;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.client.AbstractClientHttpRequest;
import org.springframework.http.client.ClientHttpResponse;
import org.springframework.util.FastByteArrayOutputStream;

/**
 * A request on the JDK {@link HttpClient} whose body, always a small byte array here, is buffered and
 * handed to the client as one {@link HttpRequest.BodyPublishers#ofByteArray byte[]}, and whose answer is
 * received whole as bytes. Spring's {@code JdkClientHttpRequest} streams every body through an
 * {@code OutputStreamPublisher} written on another thread and reads the answer through a blocking
 * {@code InputStream}, each a thread hand-off per call that a small body does not need
 * ({@code PerCallBenchmark} measures the difference). The read timeout, shortened to what is left of the
 * deadline the request carries ({@link RequestDeadline}), bounds the whole
 * exchange, the wait for a free exchange slot and the answer body included, and ends it with
 * {@link HttpTimeoutException} (the body's deadline watched by {@link AnswerDeadlines}); a connect timeout ends it with
 * {@link HttpConnectTimeoutException}; an answer longer than
 * {@link #MAX_ANSWER_BYTES} is not received beyond one byte past it.
 */
public final class BufferedJdkClientHttpRequest extends AbstractClientHttpRequest {

	/** No Model Armor answer comes near this (4 MiB of content at most); a proxy's runaway body is cut off. */
	public static final int MAX_ANSWER_BYTES = 16 * 1024 * 1024;

	/** Headers the JDK client sets itself and refuses to be given. */
	private static final List<String> SET_BY_THE_CLIENT = List.of("connection", "content-length", "expect", "host",
			"upgrade");

	private static final String TIMED_OUT = "Request timed out";

	private static final Duration SHORTEST_TIMEOUT = Duration.ofMillis(1);

	private final HttpClient httpClient;

	private final AnswerDeadlines answerDeadlines;

	private final Semaphore exchangeSlots;

	private final HttpMethod method;

	private final URI uri;

	private final Duration readTimeout;

	private final FastByteArrayOutputStream body = new FastByteArrayOutputStream(1024);

	/**
	 * A request.
	 * @param httpClient the client
	 * @param answerDeadlines ends the answers whose last byte has not come in time
	 * @param exchangeSlots one permit per exchange in flight on the client: a request waits for one at most
	 * its timeout, then fails
	 * @param uri the URI
	 * @param method the method
	 * @param readTimeout the read timeout, cut to what is left of the deadline the request carries
	 */
	public BufferedJdkClientHttpRequest(HttpClient httpClient, AnswerDeadlines answerDeadlines, Semaphore exchangeSlots,
			URI uri, HttpMethod method, Duration readTimeout) {
		this.httpClient = httpClient;
		this.answerDeadlines = answerDeadlines;
		this.exchangeSlots = exchangeSlots;
		this.uri = uri;
		this.method = method;
		this.readTimeout = readTimeout;
	}

	@Override
	public HttpMethod getMethod() {
		return this.method;
	}

	@Override
	public URI getURI() {
		return this.uri;
	}

	@Override
	protected OutputStream getBodyInternal(HttpHeaders headers) {
		return this.body;
	}

	@Override
	protected ClientHttpResponse executeInternal(HttpHeaders headers) throws IOException {
		Duration timeout = timeout();
		long deadline = System.nanoTime() + timeout.toNanos();
		acquireSlot(timeout);
		try {
			// send, not sendAsync: the public sendAsync hands every completion to the common pool, which on
			// a machine of two cores or fewer is a new thread per call
			return new Response(this.httpClient.send(jdkRequest(this.uri, this.method, headers,
					this.body.toByteArrayUnsafe(), deadline), answerFor(deadline, this.answerDeadlines)));
		}
		catch (HttpConnectTimeoutException ex) {
			throw ex;
		}
		catch (HttpTimeoutException ex) {
			// the client's own timer (until the headers) or the answer's (until the last byte): one shape
			throw new HttpTimeoutException(TIMED_OUT);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IOException("Request was interrupted: " + ex.getMessage(), ex);
		}
		finally {
			this.exchangeSlots.release();
		}
	}

	/**
	 * The JDK request of an attempt, its timeout what is left until {@code deadlineNanos}; the headers the
	 * client sets itself are left out. Shared by the non-blocking path.
	 */
	public static HttpRequest jdkRequest(URI uri, HttpMethod method, HttpHeaders headers, byte[] bytes, long deadlineNanos) {
		long left = deadlineNanos - System.nanoTime();
		HttpRequest.Builder builder = HttpRequest.newBuilder(uri)
			.timeout((left > SHORTEST_TIMEOUT.toNanos()) ? Duration.ofNanos(left) : SHORTEST_TIMEOUT);
		headers.forEach((name, values) -> {
			if (!isSetByTheClient(name)) {
				values.forEach((value) -> builder.header(name, value));
			}
		});
		builder.method(method.name(), (bytes.length == 0) ? HttpRequest.BodyPublishers.noBody()
				: HttpRequest.BodyPublishers.ofByteArray(bytes));
		return builder.build();
	}

	/** Receives an answer of at most {@link #MAX_ANSWER_BYTES}, whole by {@code deadlineNanos}. */
	public static HttpResponse.BodyHandler<byte[]> answerFor(long deadlineNanos, AnswerDeadlines answerDeadlines) {
		return (info) -> new LimitedBytes(MAX_ANSWER_BYTES + 1, deadlineNanos, answerDeadlines);
	}

	/**
	 * A failure of the non-blocking exchange in the shape the blocking one throws: a timeout until the headers
	 * or until the last byte is one {@link HttpTimeoutException}.
	 */
	public static Throwable sameShape(Throwable failure) {
		if (failure instanceof HttpTimeoutException && !(failure instanceof HttpConnectTimeoutException)) {
			return new HttpTimeoutException(TIMED_OUT);
		}
		return failure;
	}

	/**
	 * Takes a slot for the exchange, waiting at most its timeout: with every slot taken the attempt fails
	 * (and is retried as any I/O failure) rather than piling more connections and threads onto the client.
	 */
	private void acquireSlot(Duration timeout) throws IOException {
		try {
			if (!this.exchangeSlots.tryAcquire() && !this.exchangeSlots.tryAcquire(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
				throw noSlot(timeout);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IOException("Request was interrupted waiting for an exchange slot", ex);
		}
	}

	/** Every slot stayed taken for all of the attempt's timeout. */
	public static IOException noSlot(Duration timeout) {
		return new IOException("Model Armor request not sent: " + DeadlineBoundedRequestFactory.MAX_EXCHANGES_IN_FLIGHT
				+ " exchanges were in flight on this client for all of the attempt's " + timeout.toMillis()
				+ " ms; the client sends no more at once");
	}

	/**
	 * The read timeout, or what is left of the call's deadline when that is shorter; read when the request
	 * is executed, after Spring has copied the {@code RestClient}'s attributes onto it (and after the
	 * interceptors, such as the one fetching the access token, have run).
	 */
	public Duration timeout() {
		return timeout(this.readTimeout, RequestDeadline.of(this));
	}

	/** The read timeout, or what is left of the deadline when that is shorter; never below 1 ms. */
	public static Duration timeout(Duration readTimeout, @Nullable RetryDeadline deadline) {
		Duration timeout = readTimeout;
		if (deadline != null) {
			Duration remaining = deadline.remaining();
			timeout = (remaining.compareTo(timeout) < 0) ? remaining : timeout;
		}
		return (timeout.compareTo(SHORTEST_TIMEOUT) < 0) ? SHORTEST_TIMEOUT : timeout;
	}

	private static boolean isSetByTheClient(String header) {
		for (String name : SET_BY_THE_CLIENT) {
			if (name.equalsIgnoreCase(header)) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Collects an answer's bytes, stops receiving once it holds {@code limit} of them (cancelling the
	 * subscription, which closes the connection rather than draining it), and ends the answer with
	 * {@link HttpTimeoutException} when its last byte has not come by the exchange's deadline (the client's
	 * own request timeout ends with the headers). The buffer grows by doubling but never past the limit, so
	 * a runaway answer holds at most {@code limit} bytes.
	 */
	public static final class LimitedBytes implements HttpResponse.BodySubscriber<byte[]>, AnswerDeadlines.Watched {

		/** Most Model Armor answers fit: a sanitize result is a few hundred bytes to a few KiB. */
		private static final int INITIAL_CAPACITY = 2 * 1024;

		private final int limit;

		private byte[] bytes = new byte[INITIAL_CAPACITY];

		private int size;

		private final CompletableFuture<byte[]> result = new CompletableFuture<>();

		private final CompletionStage<byte[]> body;

		private volatile Flow.@Nullable Subscription subscription;

		private final long deadlineNanos;

		private final AnswerDeadlines deadlines;

		public LimitedBytes(int limit, long deadlineNanos, AnswerDeadlines deadlines) {
			this.limit = limit;
			this.deadlineNanos = deadlineNanos;
			this.deadlines = deadlines;
			this.body = this.result.handle(this::endTimeoutAsHttpTimeout);
			deadlines.watch(this);
		}

		@Override
		public long deadlineNanos() {
			return this.deadlineNanos;
		}

		@Override
		public void expire() {
			this.result.completeExceptionally(new TimeoutException());
		}

		private byte[] endTimeoutAsHttpTimeout(byte @Nullable [] received, @Nullable Throwable failure) {
			this.deadlines.done(this);
			if (failure == null && received != null) {
				return received;
			}
			if (failure instanceof TimeoutException) {
				cancel();
				throw new CompletionException(new HttpTimeoutException(TIMED_OUT));
			}
			throw (failure instanceof CompletionException completion) ? completion : new CompletionException(failure);
		}

		@Override
		public CompletionStage<byte[]> getBody() {
			return this.body;
		}

		@Override
		public void onSubscribe(Flow.Subscription subscription) {
			this.subscription = subscription;
			subscription.request(Long.MAX_VALUE);
		}

		@Override
		public void onNext(List<ByteBuffer> buffers) {
			for (ByteBuffer buffer : buffers) {
				int take = Math.min(buffer.remaining(), this.limit - this.size);
				ensureCapacity(this.size + take);
				buffer.get(this.bytes, this.size, take);
				this.size += take;
			}
			if (this.size >= this.limit) {
				cancel();
				this.result.complete(received());
			}
		}

		private void ensureCapacity(int needed) {
			if (needed > this.bytes.length) {
				int doubledUpToTheLimit = (int) Math.min(2L * this.bytes.length, this.limit);
				this.bytes = Arrays.copyOf(this.bytes, Math.max(needed, doubledUpToTheLimit));
			}
		}

		/** How many bytes the buffer can hold now, never more than the limit. */
		public int capacity() {
			return this.bytes.length;
		}

		private byte[] received() {
			return (this.size == this.bytes.length) ? this.bytes : Arrays.copyOf(this.bytes, this.size);
		}

		private void cancel() {
			Flow.Subscription current = this.subscription;
			if (current != null) {
				current.cancel();
			}
		}

		@Override
		public void onError(Throwable failure) {
			this.result.completeExceptionally(failure);
		}

		@Override
		public void onComplete() {
			this.result.complete(received());
		}

	}

	/**
	 * The answer, already whole: a bounded {@code readNBytes(int)} of all of it is one copy, not the
	 * general {@link InputStream}'s copy through 8 KiB buffers.
	 */
	private static final class AnswerStream extends ByteArrayInputStream {

		AnswerStream(byte[] answer) {
			super(answer);
		}

		@Override
		public synchronized byte[] readNBytes(int len) throws IOException {
			return (len >= this.count - this.pos) ? readAllBytes() : super.readNBytes(len);
		}

	}

	public static final class Response implements ClientHttpResponse {

		private final HttpResponse<byte[]> response;

		/** Copied when first asked for: a successful call never reads them. */
		private @Nullable HttpHeaders headers;

		public Response(HttpResponse<byte[]> response) {
			this.response = response;
		}

		@Override
		public HttpStatusCode getStatusCode() {
			return HttpStatusCode.valueOf(this.response.statusCode());
		}

		@Override
		public String getStatusText() {
			return "";
		}

		@Override
		public HttpHeaders getHeaders() {
			HttpHeaders copied = this.headers;
			if (copied == null) {
				copied = new HttpHeaders();
				for (Map.Entry<String, List<String>> header : this.response.headers().map().entrySet()) {
					if (!header.getKey().startsWith(":")) {
						copied.addAll(header.getKey(), header.getValue());
					}
				}
				this.headers = copied;
			}
			return copied;
		}

		@Override
		public InputStream getBody() {
			return new AnswerStream(this.response.body());
		}

		@Override
		public void close() {
		}

	}

}
