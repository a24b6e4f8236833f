package dev.modelarmor.benchmarks.threads;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.modelarmor.client.DataItem;
import dev.modelarmor.client.ModelArmorOperations;
import dev.modelarmor.client.SanitizeOptions;
import dev.modelarmor.screening.ModelArmorTaskExecutor;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

/**
 * The threads of an application with the starter, one run per JVM (not a timed test): the platform threads alive
 * in total and those named {@code modelarmor-*}, when the application is idle, with 256 calls in flight against a
 * slow Model Armor on loopback (answers after 2 s), during a 503 outage (every attempt answered 503 at once,
 * retried until the deadline), idle again past the 30 s a pool thread idles, after the context closed, and in a
 * second context while Model Armor refuses connections. The calls
 * are the non-blocking path's ({@code sanitizeUserPromptAsync}), so that no caller thread of the harness counts.
 * The loopback server runs on two threads of its own ({@code loopback-*}), counted in the total.
 *
 * <p>Virtual threads are not platform threads: neither count includes them. Run once with the default JDK and
 * once with each JDK and {@code spring.threads.virtual.enabled} to compare.
 *
 * <p>Arguments: {@code spring.threads.virtual.enabled} ({@code false}), calls in flight ({@code 256}).
 */
public final class ThreadCountHarness {

	private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

	private static final Duration SLOW = Duration.ofSeconds(2);

	private static final Duration DEADLINE = Duration.ofSeconds(6);

	/** Longer than the 30 s that an idle pool thread lives. */
	private static final Duration IDLE = Duration.ofSeconds(35);

	private ThreadCountHarness() {
	}

	public static void main(String[] args) throws Exception {
		boolean virtual = args.length > 0 && Boolean.parseBoolean(args[0]);
		int inFlight = (args.length > 1) ? Integer.parseInt(args[1]) : 256;
		LoopbackModelArmor modelArmor = LoopbackModelArmor.start();
		try {
			run(modelArmor, virtual, inFlight);
		}
		finally {
			modelArmor.stop();
		}
	}

	private static void run(LoopbackModelArmor modelArmor, boolean virtual, int inFlight) throws Exception {
		int refusingPort = closedPort();
		List<String> rows = new ArrayList<>();
		String label = "Java " + Runtime.version().feature() + ((virtual) ? ", virtual on" : ", virtual off");
		rows.add(row(label, "before the application starts", sample(Duration.ofMillis(200), () -> true)));
		ConfigurableApplicationContext context = application(modelArmor.port(), virtual);
		try {
			rows.add(row(label, "started, no call yet", sample(Duration.ofMillis(500), () -> true)));
			ModelArmorOperations operations = context.getBean(ModelArmorOperations.class);
			operations.sanitizeUserPromptAsync(DataItem.text("warm-up"), SanitizeOptions.NONE, Runnable::run).join();
			Thread.sleep(1000);
			rows.add(row(label, "idle, 1 s after a call", sample(Duration.ofMillis(500), () -> true)));
			modelArmor.mode = Mode.SLOW;
			rows.add(row(label, inFlight + " calls in flight, answers after " + SLOW.toSeconds() + " s",
					load(operations, inFlight)));
			ModelArmorTaskExecutor tasks = context.getBean(ModelArmorTaskExecutor.class);
			rows.add(row(label, ModelArmorTaskExecutor.DEFAULT_CONCURRENCY
					+ " blocking calls on the starter's task executor, answers after " + SLOW.toSeconds() + " s",
					blockingTasks(operations, tasks, ModelArmorTaskExecutor.DEFAULT_CONCURRENCY)));
			modelArmor.mode = Mode.UNAVAILABLE;
			rows.add(row(label, inFlight + " calls, 503 outage, retried for " + DEADLINE.toSeconds() + " s",
					load(operations, inFlight)));
			Thread.sleep(IDLE.toMillis());
			rows.add(row(label, "idle, " + IDLE.toSeconds() + " s after the last call", sample(Duration.ofMillis(500),
					() -> true)));
		}
		finally {
			context.close();
		}
		Thread.sleep(2000);
		rows.add(row(label, "2 s after the context closed", sample(Duration.ofMillis(200), () -> true)));
		ConfigurableApplicationContext refusing = application(refusingPort, virtual);
		try {
			rows.add(row(label, inFlight + " calls, connections refused, retried for " + DEADLINE.toSeconds()
					+ " s (a second context)", load(refusing.getBean(ModelArmorOperations.class), inFlight)));
		}
		finally {
			refusing.close();
		}
		Thread.sleep(2000);
		rows.add(row(label, "2 s after it closed", sample(Duration.ofMillis(200), () -> true)));
		System.out.printf(Locale.ROOT, "Thread count harness: %d cores, Java %s, load average %.2f%n%n",
				Runtime.getRuntime().availableProcessors(), Runtime.version(),
				ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
		System.out.println("| JVM | phase | platform threads (peak) | platform modelarmor-* (peak) "
				+ "| modelarmor-* at peak, by purpose (virtual ones marked) |");
		System.out.println("|---|---|---|---|---|");
		rows.forEach(System.out::println);
	}

	private static ConfigurableApplicationContext application(int port, boolean virtual) {
		return new SpringApplicationBuilder(ThreadsApplication.class).web(WebApplicationType.NONE)
			.logStartupInfo(false)
			.properties("modelarmor.project-id=threads", "modelarmor.location=us-central1",
					"modelarmor.template-id=threads", "modelarmor.credentials.enabled=false",
					"modelarmor.template-check.enabled=false", "modelarmor.endpoint=http://127.0.0.1:" + port,
					"modelarmor.retry.deadline=" + DEADLINE.toSeconds() + "s",
					"spring.threads.virtual.enabled=" + virtual, "logging.level.root=ERROR")
			.run();
	}

	private static Sample load(ModelArmorOperations operations, int inFlight) {
		List<CompletableFuture<?>> calls = new ArrayList<>();
		for (int i = 0; i < inFlight; i++) {
			calls.add(operations.sanitizeUserPromptAsync(DataItem.text("call " + i), SanitizeOptions.NONE, Runnable::run)
				.handle((result, failure) -> null));
		}
		CompletableFuture<Void> all = CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new));
		return sample(Duration.ofMinutes(1), () -> !all.isDone());
	}

	/** Blocking calls handed to the task executor, each on one of its threads (none runs on this one). */
	private static Sample blockingTasks(ModelArmorOperations operations, ModelArmorTaskExecutor tasks, int count) {
		java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(count);
		for (int i = 0; i < count; i++) {
			String text = "task " + i;
			tasks.execute(() -> {
				try {
					operations.sanitizeUserPrompt(text);
				}
				catch (RuntimeException ex) {
					// counted by the threads, not the outcome
				}
				finally {
					done.countDown();
				}
			});
		}
		return sample(Duration.ofMinutes(1), () -> done.getCount() > 0);
	}

	/** The peak over the period, or for as long as the condition holds (at least one sample). */
	private static Sample sample(Duration longest, java.util.function.BooleanSupplier going) {
		long end = System.nanoTime() + longest.toNanos();
		Sample peak = Sample.now();
		do {
			Sample now = Sample.now();
			if (now.total() > peak.total() || now.ours() > peak.ours()) {
				peak = new Sample(Math.max(now.total(), peak.total()), Math.max(now.ours(), peak.ours()),
						(now.ours() >= peak.ours()) ? now.byPurpose() : peak.byPurpose());
			}
			sleep(50);
		}
		while (going.getAsBoolean() && System.nanoTime() < end);
		return peak;
	}

	private static String row(String label, String phase, Sample sample) {
		return "| " + label + " | " + phase + " | " + sample.total() + " | " + sample.ours() + " | "
				+ (sample.byPurpose().isEmpty() ? "none" : sample.byPurpose().toString().replaceAll("[{}]", "")) + " |";
	}

	private static int closedPort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * The platform threads alive, in total and named {@code modelarmor-*} (by purpose, the name without its number),
	 * and on Java 21 and later the virtual threads named {@code modelarmor-*}, read from a thread dump.
	 */
	private record Sample(int total, int ours, Map<String, Integer> byPurpose) {

		static Sample now() {
			Map<String, Integer> byPurpose = new TreeMap<>();
			int ours = 0;
			for (Thread thread : Thread.getAllStackTraces().keySet()) {
				String name = thread.getName();
				if (name.startsWith("modelarmor-")) {
					ours++;
					byPurpose.merge(name.replaceAll("-\\d+$", ""), 1, Integer::sum);
				}
			}
			for (String name : VirtualThreads.names()) {
				if (name.startsWith("modelarmor-")) {
					byPurpose.merge(name.replaceAll("-\\d+$", "") + " (virtual)", 1, Integer::sum);
				}
			}
			return new Sample(THREADS.getThreadCount(), ours, byPurpose);
		}

	}

	/**
	 * The names of the virtual threads alive, from the JDK's thread dump (Java 21 and later; none before), read
	 * through reflection so that the harness compiles on Java 17.
	 */
	private static final class VirtualThreads {

		private static final java.util.regex.Pattern VIRTUAL = java.util.regex.Pattern
			.compile("^#\\d+ \"([^\"]*)\" virtual");

		static List<String> names() {
			if (Runtime.version().feature() < 21) {
				return List.of();
			}
			try {
				java.nio.file.Path dump = java.nio.file.Files.createTempFile("threads", ".txt");
				java.nio.file.Files.delete(dump);
				Object bean = ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class);
				Class<?> format = Class.forName("com.sun.management.HotSpotDiagnosticMXBean$ThreadDumpFormat");
				Object text = format.getField("TEXT_PLAIN").get(null);
				com.sun.management.HotSpotDiagnosticMXBean.class.getMethod("dumpThreads", String.class, format)
					.invoke(bean, dump.toString(), text);
				List<String> names = new ArrayList<>();
				for (String line : java.nio.file.Files.readAllLines(dump)) {
					java.util.regex.Matcher matcher = VIRTUAL.matcher(line);
					if (matcher.find()) {
						names.add(matcher.group(1));
					}
				}
				java.nio.file.Files.delete(dump);
				return names;
			}
			catch (ReflectiveOperationException | IOException ex) {
				throw new IllegalStateException(ex);
			}
		}

	}

	private enum Mode {

		FAST, SLOW, UNAVAILABLE

	}

	/**
	 * Model Armor on loopback: a JDK HTTP server whose one dispatcher thread hands each exchange to a one-thread
	 * timer that answers it later, so that 256 slow answers hold no thread each.
	 */
	private static final class LoopbackModelArmor {

		private static final byte[] NO_MATCH = """
				{"sanitizationResult":{"filterMatchState":"NO_MATCH_FOUND","invocationResult":"SUCCESS",\
				"filterResults":{}}}""".getBytes(StandardCharsets.UTF_8);

		private final HttpServer server;

		private final ScheduledExecutorService answers;

		volatile Mode mode = Mode.FAST;

		private LoopbackModelArmor(HttpServer server, ScheduledExecutorService answers) {
			this.server = server;
			this.answers = answers;
		}

		static LoopbackModelArmor start() throws IOException {
			AtomicInteger number = new AtomicInteger();
			ScheduledExecutorService answers = Executors.newSingleThreadScheduledExecutor((task) -> {
				Thread thread = new Thread(task, "loopback-answers-" + number.incrementAndGet());
				thread.setDaemon(true);
				return thread;
			});
			HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1024);
			LoopbackModelArmor modelArmor = new LoopbackModelArmor(server, answers);
			server.createContext("/", modelArmor::handle);
			server.start();
			return modelArmor;
		}

		int port() {
			return this.server.getAddress().getPort();
		}

		private void handle(HttpExchange exchange) throws IOException {
			exchange.getRequestBody().readAllBytes();
			switch (this.mode) {
				case FAST -> answer(exchange, 200, NO_MATCH);
				case UNAVAILABLE -> answer(exchange, 503, "{}".getBytes(StandardCharsets.UTF_8));
				case SLOW -> this.answers.schedule(() -> answer(exchange, 200, NO_MATCH), SLOW.toMillis(),
						TimeUnit.MILLISECONDS);
			}
		}

		private static void answer(HttpExchange exchange, int status, byte[] body) {
			try (exchange) {
				exchange.getResponseHeaders().add("Content-Type", "application/json");
				exchange.sendResponseHeaders(status, body.length);
				exchange.getResponseBody().write(body);
			}
			catch (IOException ex) {
				// the client gave up on it
			}
		}

		void stop() {
			this.server.stop(0);
			this.answers.shutdownNow();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class ThreadsApplication {

	}

}
