package dev.modelarmor.testredis;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real {@code redis-server} (Debian's, {@code /usr/bin/redis-server}) on a free loopback port, without
 * persistence, for tests: started by {@link #start()}, ended by {@link #close()}. It can be stalled
 * ({@link #pause()}: {@code SIGSTOP}, so that it accepts connections and answers nothing) and stopped
 * ({@link #kill()}), and spoken to directly ({@link #command(String...)}) as another writer of Redis would.
 */
public final class RedisServerProcess implements AutoCloseable {

	private static final String EXECUTABLE = "/usr/bin/redis-server";

	private final Process process;

	private final int port;

	private RedisServerProcess(Process process, int port) {
		this.process = process;
		this.port = port;
	}

	/**
	 * Whether {@code redis-server} is installed. A developer's machine without it skips the Redis tests; in
	 * CI ({@code CI=true}), which installs it, a missing server fails them instead of skipping them quietly.
	 * @return whether the tests can start one
	 * @throws IllegalStateException in CI when it is not installed
	 */
	public static boolean available() {
		boolean installed = Files.isExecutable(Path.of(EXECUTABLE));
		if (!installed && "true".equals(System.getenv("CI"))) {
			throw new IllegalStateException(EXECUTABLE + " is missing; .ci/run installs Debian's redis-server");
		}
		return installed;
	}

	/**
	 * Starts a server and waits until it answers {@code PING}.
	 * @return the server
	 * @throws IOException when it cannot be started
	 */
	public static RedisServerProcess start() throws IOException {
		int port;
		try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
			port = socket.getLocalPort();
		}
		Process process = new ProcessBuilder(EXECUTABLE, "--port", Integer.toString(port), "--bind", "127.0.0.1",
				"--save", "", "--appendonly", "no", "--protected-mode", "yes")
			.redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.DISCARD)
			.start();
		RedisServerProcess server = new RedisServerProcess(process, port);
		long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
		while (true) {
			try {
				if ("PONG".equals(server.command("PING"))) {
					return server;
				}
			}
			catch (IOException ex) {
				if (!process.isAlive() || System.nanoTime() > deadline) {
					server.close();
					throw new IOException("redis-server did not start on port " + port, ex);
				}
			}
			try {
				Thread.sleep(20);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				server.close();
				throw new IOException("interrupted", ex);
			}
		}
	}

	/**
	 * The port it listens on, on 127.0.0.1.
	 * @return the port
	 */
	public int port() {
		return this.port;
	}

	/**
	 * Sends one command and reads its answer: a status or bulk string as it is, an integer as its digits,
	 * {@code null} for a nil, the elements of an array one per line.
	 * @param arguments the command and its arguments
	 * @return the answer
	 * @throws IOException when the server does not answer within 5 s
	 */
	public String command(String... arguments) throws IOException {
		try (Socket socket = new Socket(java.net.InetAddress.getLoopbackAddress(), this.port)) {
			socket.setSoTimeout(5000);
			OutputStream out = socket.getOutputStream();
			StringBuilder request = new StringBuilder("*").append(arguments.length).append("\r\n");
			for (String argument : arguments) {
				byte[] bytes = argument.getBytes(StandardCharsets.UTF_8);
				request.append('$').append(bytes.length).append("\r\n").append(argument).append("\r\n");
			}
			out.write(request.toString().getBytes(StandardCharsets.UTF_8));
			out.flush();
			return read(socket.getInputStream());
		}
	}

	private static String read(InputStream in) throws IOException {
		String line = line(in);
		char type = line.charAt(0);
		String rest = line.substring(1);
		switch (type) {
			case '+', ':' -> {
				return rest;
			}
			case '-' -> throw new IOException("redis error: " + rest);
			case '$' -> {
				int length = Integer.parseInt(rest);
				if (length < 0) {
					return "null";
				}
				byte[] bytes = in.readNBytes(length + 2);
				return new String(bytes, 0, length, StandardCharsets.UTF_8);
			}
			case '*' -> {
				int count = Integer.parseInt(rest);
				List<String> elements = new ArrayList<>();
				for (int i = 0; i < count; i++) {
					elements.add(read(in));
				}
				return String.join("\n", elements);
			}
			default -> throw new IOException("unexpected answer: " + line);
		}
	}

	private static String line(InputStream in) throws IOException {
		ByteArrayOutputStream line = new ByteArrayOutputStream();
		int previous = -1;
		while (true) {
			int next = in.read();
			if (next < 0) {
				throw new IOException("connection closed");
			}
			if (previous == '\r' && next == '\n') {
				byte[] bytes = line.toByteArray();
				return new String(bytes, 0, bytes.length - 1, StandardCharsets.UTF_8);
			}
			line.write(next);
			previous = next;
		}
	}

	/**
	 * Stalls the server ({@code SIGSTOP}): connections are accepted by the kernel, nothing is answered.
	 */
	public void pause() {
		signal("STOP");
	}

	/**
	 * Lets a stalled server go on ({@code SIGCONT}).
	 */
	public void resume() {
		signal("CONT");
	}

	/**
	 * Stops the server at once, as a crash would: nothing listens on its port afterwards.
	 */
	public void kill() {
		this.process.destroyForcibly();
		try {
			this.process.waitFor(10, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private void signal(String signal) {
		try {
			Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(this.process.pid())).start();
			kill.waitFor(10, TimeUnit.SECONDS);
		}
		catch (IOException ex) {
			throw new IllegalStateException("kill -" + signal + " failed", ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@Override
	public void close() {
		if (this.process.isAlive()) {
			// A stopped process ends on SIGKILL too, but resume it first so that it exits cleanly.
			signal("CONT");
			kill();
		}
	}

}
