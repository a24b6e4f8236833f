package dev.modelarmor.auth;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A token endpoint on loopback that accepts every connection and never answers: what a hung proxy or
 * a black-holed metadata server looks like to google-auth. A raw socket server, because an HTTP stub
 * answers eventually or closes the connection. It counts the connections it accepted; as it never
 * answers, each one is a token request that no keep-alive connection could have carried.
 */
public final class StallingTokenEndpoint implements AutoCloseable {

	private final ServerSocket server;

	private final List<Socket> held = new CopyOnWriteArrayList<>();

	private final AtomicInteger connections = new AtomicInteger();

	private final Thread acceptor;

	private StallingTokenEndpoint() throws IOException {
		this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		this.acceptor = new Thread(this::accept, "stalling-token-endpoint");
		this.acceptor.setDaemon(true);
		this.acceptor.start();
	}

	/**
	 * Starts an endpoint on a free loopback port.
	 * @return the endpoint
	 * @throws IOException when no port could be bound
	 */
	public static StallingTokenEndpoint start() throws IOException {
		return new StallingTokenEndpoint();
	}

	/**
	 * The URI to put in a service-account key's {@code token_uri}.
	 * @return the token URI
	 */
	public String tokenUri() {
		return "http://127.0.0.1:" + this.server.getLocalPort() + "/token";
	}

	/**
	 * The connections accepted so far.
	 * @return the count
	 */
	public int connections() {
		return this.connections.get();
	}

	private void accept() {
		while (!this.server.isClosed()) {
			try {
				Socket socket = this.server.accept();
				this.held.add(socket);
				this.connections.incrementAndGet();
			}
			catch (IOException ex) {
				return; // closed
			}
		}
	}

	/**
	 * Stops accepting and closes every held connection.
	 * @throws IOException when a socket cannot be closed
	 */
	@Override
	public void close() throws IOException {
		this.server.close();
		for (Socket socket : this.held) {
			socket.close();
		}
	}

}
