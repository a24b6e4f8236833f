package dev.modelarmor.client;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.modelarmor.client.internal.transport.BufferedJdkClientHttpRequest;
import dev.modelarmor.retry.VirtualTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The 16 MiB answer cap. Every answer up to it arrives whole, one byte more is refused. A server that
 * streams a 100 MiB answer: the client stops receiving just past the 16 MiB cap, fails
 * the call at once, and does not read (nor hold in memory) the rest. A raw socket server on loopback
 * counts the bytes it managed to hand to the connection before the client went away; the kernel's socket
 * buffers on both sides account for the few MiB between that count and the cap.
 */
class RunawayAnswerTests {

	static final long HUNDRED_MIB = 100L * 1024 * 1024;

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	/** Socket buffers of both ends on loopback, and the HTTP client's own: generous, far below 100 MiB. */
	static final long BUFFERS = 16L * 1024 * 1024;

	@Test
	@Timeout(60)
	void aHundredMibWithContentLengthIsCutJustPastTheCap() throws Exception {
		assertCutOff("Content-Length: " + HUNDRED_MIB + "\r\n", false);
	}

	@Test
	@Timeout(60)
	void aHundredMibChunkedIsCutJustPastTheCap() throws Exception {
		assertCutOff("Transfer-Encoding: chunked\r\n", true);
	}

	@Test
	@Timeout(60)
	void aHundredMibErrorAnswerIsCutJustPastTheCapToo() throws Exception {
		try (StreamingServer server = new StreamingServer(503, "Content-Length: " + HUNDRED_MIB + "\r\n", false)) {
			assertThatExceptionOfType(ModelArmorException.class).isThrownBy(() -> template(server).sanitizeUserPrompt("hi"))
				.withMessageContaining("HTTP 503 with a body larger than " + BufferedJdkClientHttpRequest.MAX_ANSWER_BYTES + " bytes");
			assertThat(server.written()).isLessThan(BufferedJdkClientHttpRequest.MAX_ANSWER_BYTES + BUFFERS);
		}
	}

	@ParameterizedTest
	@ValueSource(ints = { 0, 1, 2_047, 2_048, 2_049, 100_000, BufferedJdkClientHttpRequest.MAX_ANSWER_BYTES })
	void everyAnswerUpToTheCapArrivesWhole(int padding) {
		String answer = ModelArmorTemplateTests.NO_MATCH.strip();
		int spaces = Math.max(0, padding - answer.length());
		modelArmor.stubFor(post(urlPathEqualTo(ModelArmorTemplateTests.PROMPT_PATH)).willReturn(aResponse().withStatus(200)
			.withHeader("Content-Type", "application/json")
			.withBody(answer.substring(0, answer.length() - 1) + " ".repeat(spaces) + "}")));

		assertThat(wireMockTemplate().sanitizeUserPrompt("hi").invocationResult()).isEqualTo(InvocationResult.SUCCESS);
	}

	@Test
	void oneBytePastTheCapIsRefused() {
		String answer = ModelArmorTemplateTests.NO_MATCH.strip();
		modelArmor.stubFor(post(urlPathEqualTo(ModelArmorTemplateTests.PROMPT_PATH)).willReturn(aResponse().withStatus(200)
			.withHeader("Content-Type", "application/json")
			.withBody(answer.substring(0, answer.length() - 1) + " ".repeat(BufferedJdkClientHttpRequest.MAX_ANSWER_BYTES + 1 - answer.length())
					+ "}")));

		assertThatExceptionOfType(ModelArmorException.class).isThrownBy(() -> wireMockTemplate().sanitizeUserPrompt("hi"))
			.withMessageContaining("larger than " + BufferedJdkClientHttpRequest.MAX_ANSWER_BYTES + " bytes");
	}

	private static ModelArmorTemplate wireMockTemplate() {
		return ModelArmorTemplate.builder()
			.endpoint(ModelArmorEndpoint.of(modelArmor.baseUrl()))
			.retryRuntime(new VirtualTime().runtime(new SplittableRandom(1)))
			.projectId("demo-project")
			.templateId("default-template")
			.build();
	}

	private static void assertCutOff(String framing, boolean chunked) throws Exception {
		try (StreamingServer server = new StreamingServer(200, framing, chunked)) {
			long started = System.nanoTime();

			assertThatExceptionOfType(ModelArmorException.class).isThrownBy(() -> template(server).sanitizeUserPrompt("hi"))
				.withMessageContaining("body larger than " + BufferedJdkClientHttpRequest.MAX_ANSWER_BYTES + " bytes")
				.satisfies((ex) -> assertThat(ex.attempts()).isEqualTo(1));

			Duration took = Duration.ofNanos(System.nanoTime() - started);
			long written = server.written();
			assertThat(written).as("bytes the server wrote before the client went away")
				.isGreaterThan(BufferedJdkClientHttpRequest.MAX_ANSWER_BYTES)
				.isLessThan(BufferedJdkClientHttpRequest.MAX_ANSWER_BYTES + BUFFERS);
			// 16 MiB on loopback: well under a second on a quiet machine; loose for a loaded one
			assertThat(took).isLessThan(Duration.ofSeconds(20));
		}
	}

	private static ModelArmorTemplate template(StreamingServer server) {
		return ModelArmorTemplate.builder()
			.endpoint(ModelArmorEndpoint.of("http://127.0.0.1:" + server.port()))
			.retryRuntime(new VirtualTime().runtime(new SplittableRandom(1)))
			.projectId("p")
			.templateId("t")
			.build();
	}

	/**
	 * Answers one request with a status, the given framing headers, and spaces for as long as the client
	 * takes them, up to 100 MiB; counts what it wrote, stops when the client closes the connection.
	 */
	static final class StreamingServer implements AutoCloseable {

		private final ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());

		private final AtomicLong written = new AtomicLong();

		private final CompletableFuture<Void> done = new CompletableFuture<>();

		private volatile Socket connection;

		private volatile boolean clientWentAway;

		StreamingServer(int status, String framing, boolean chunked) throws IOException {
			Thread thread = new Thread(() -> {
				serve(status, framing, chunked);
				this.done.complete(null);
			}, "runaway-answer-server");
			thread.setDaemon(true);
			thread.start();
		}

		int port() {
			return this.socket.getLocalPort();
		}

		/** The bytes written, once the client has closed the connection (within ten seconds). */
		long written() throws Exception {
			this.done.get(10, TimeUnit.SECONDS);
			assertThat(this.clientWentAway).as("the client closed the connection").isTrue();
			return this.written.get();
		}

		private void serve(int status, String framing, boolean chunked) {
			try (Socket connection = this.socket.accept()) {
				this.connection = connection;
				connection.setSendBufferSize(64 * 1024);
				readRequest(connection.getInputStream());
				OutputStream out = connection.getOutputStream();
				out.write(("HTTP/1.1 " + status + " X\r\nContent-Type: application/json\r\n" + framing + "\r\n")
					.getBytes(StandardCharsets.US_ASCII));
				byte[] spaces = new byte[64 * 1024];
				Arrays.fill(spaces, (byte) ' ');
				byte[] chunkHeader = (Integer.toHexString(spaces.length) + "\r\n").getBytes(StandardCharsets.US_ASCII);
				byte[] crlf = "\r\n".getBytes(StandardCharsets.US_ASCII);
				while (this.written.get() < HUNDRED_MIB) {
					if (chunked) {
						out.write(chunkHeader);
					}
					out.write(spaces);
					if (chunked) {
						out.write(crlf);
					}
					this.written.addAndGet(spaces.length);
				}
				out.flush();
			}
			catch (IOException ex) {
				// the client went away: what it took is counted
				this.clientWentAway = true;
			}
		}

		/** Reads the request line, headers and a Content-Length body. */
		private static void readRequest(InputStream in) throws IOException {
			StringBuilder head = new StringBuilder();
			while (!head.toString().endsWith("\r\n\r\n")) {
				int b = in.read();
				if (b < 0) {
					return;
				}
				head.append((char) b);
			}
			long length = head.toString()
				.lines()
				.filter((line) -> line.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:"))
				.mapToLong((line) -> Long.parseLong(line.substring(15).trim()))
				.findFirst()
				.orElse(0);
			in.readNBytes((int) length);
		}

		@Override
		public void close() throws IOException {
			this.socket.close();
			Socket open = this.connection;
			if (open != null) {
				open.close();
			}
		}

	}

}
