package dev.modelarmor.testredis;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A real {@code redis-server} ({@value #BINARY}) on a free loopback port, without persistence, for as long
 * as the test holds it: {@code try (RedisServerProcess redis = RedisServerProcess.start()) { … }}.
 */
public final class RedisServerProcess implements AutoCloseable {

	/** Debian's redis-server; {@code .ci/run} installs it when missing. */
	public static final String BINARY = "/usr/bin/redis-server";

	private final Process process;

	private final int port;

	private RedisServerProcess(Process process, int port) {
		this.process = process;
		this.port = port;
	}

	/**
	 * Whether the server binary is installed.
	 * @return {@code true} when {@value #BINARY} is executable
	 */
	public static boolean isInstalled() {
		return Files.isExecutable(Path.of(BINARY));
	}

	/**
	 * Starts a server and waits until it accepts connections.
	 * @return the running server
	 * @throws IOException when it cannot be started
	 */
	public static RedisServerProcess start() throws IOException {
		int port;
		try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			port = free.getLocalPort();
		}
		Process process = new ProcessBuilder(BINARY, "--port", String.valueOf(port), "--bind", "127.0.0.1", "--save",
				"", "--appendonly", "no").redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
		RedisServerProcess server = new RedisServerProcess(process, port);
		long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
		while (System.nanoTime() < until) {
			try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
				return server;
			}
			catch (IOException notYet) {
				if (!process.isAlive()) {
					throw new IOException("redis-server exited with " + process.exitValue());
				}
				try {
					Thread.sleep(50);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					server.close();
					throw new IOException("interrupted while starting redis-server", ex);
				}
			}
		}
		server.close();
		throw new IOException("redis-server did not accept connections on port " + port);
	}

	/**
	 * The port it listens on, on 127.0.0.1.
	 * @return the port
	 */
	public int port() {
		return this.port;
	}

	@Override
	public void close() {
		this.process.destroy();
		try {
			if (!this.process.waitFor(10, TimeUnit.SECONDS)) {
				this.process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			this.process.destroyForcibly();
		}
	}

}
