package dev.modelarmor.benchmarks.storm;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import javax.imageio.ImageIO;

import dev.modelarmor.benchmarks.storm.RetryStormSimulation.Result;
import dev.modelarmor.benchmarks.storm.RetryStormSimulation.Scenario;
import dev.modelarmor.retry.RetrySettings;

/**
 * Runs the retry-storm simulation for 100, 1,000 and 10,000 clients and every strategy, prints a Markdown
 * table and writes one PNG chart of attempts per second over time for each client count.
 *
 * <pre>
 * java -Djava.awt.headless=true -cp benchmarks/target/modelarmor-benchmarks.jar \
 *     dev.modelarmor.benchmarks.storm.RetryStormReport [--clients 100,1000,10000] [--outage-seconds 20]
 *     [--capacity-divisor 10] [--seed 42] [--out benchmarks/target/retry-storm]
 * </pre>
 *
 * Server capacity is {@code clients / capacity-divisor} attempts per second, so every size needs the same
 * ten seconds of full throughput to serve its clients once. The clients use the starter's defaults
 * (1 s, 1 s jitter, 32 s cap, 60 s deadline); the default budget is 10 tokens, 0.1 back per success.
 */
public final class RetryStormReport {

	private static final Color[] COLORS = { new Color(0xD62728), new Color(0xFF9896), new Color(0x1F77B4),
			new Color(0xAEC7E8), new Color(0x2CA02C), new Color(0x98DF8A) };

	private RetryStormReport() {
	}

	public static void main(String[] args) throws IOException {
		System.setProperty("java.awt.headless", "true");
		List<Integer> sizes = List.of(100, 1_000, 10_000);
		long outageSeconds = 20;
		int divisor = 10;
		long seed = 42;
		Path out = Path.of("benchmarks/target/retry-storm");
		for (int i = 0; i + 1 < args.length; i += 2) {
			switch (args[i]) {
				case "--clients" -> sizes = parseSizes(args[i + 1]);
				case "--outage-seconds" -> outageSeconds = Long.parseLong(args[i + 1]);
				case "--capacity-divisor" -> divisor = Integer.parseInt(args[i + 1]);
				case "--seed" -> seed = Long.parseLong(args[i + 1]);
				case "--out" -> out = Path.of(args[i + 1]);
				default -> throw new IllegalArgumentException("unknown option " + args[i]);
			}
		}
		Files.createDirectories(out);
		long started = System.nanoTime();
		StringBuilder table = new StringBuilder();
		table.append(String.format(Locale.ROOT,
				"Outage %d s, capacity clients/%d per second after it, 50 ms per attempt, first attempts spread over 1 s, "
						+ "seed %d; starter defaults (1 s, jitter 1 s, cap 32 s, deadline 60 s; the default retry budget, one per client).%n%n",
				outageSeconds, divisor, seed));
		table.append("| clients | strategy | total calls | calls/client | peak calls/s after recovery | all ended at | succeeded | gave up at deadline | gave up on budget |\n");
		table.append("|---:|---|---:|---:|---:|---:|---:|---:|---:|\n");
		for (int size : sizes) {
			Scenario base = new Scenario(size, Duration.ofSeconds(outageSeconds), Math.max(1, size / divisor),
					Duration.ofMillis(50), Duration.ofSeconds(1), RetrySettings.DEFAULTS, seed);
			List<Result> results = new ArrayList<>();
			for (RetrySettings settings : RetryStormSimulation.strategies(RetrySettings.DEFAULTS)) {
				Result result = RetryStormSimulation.run(base.with(settings));
				results.add(result);
				table.append(String.format(Locale.ROOT, "| %,d | %s | %,d | %.1f | %,d | %.1f s | %,d | %,d | %,d |%n", size,
						result.label(), result.totalCalls(), (double) result.totalCalls() / size,
						result.peakCallsPerSecondAfterRecovery(), result.settledAt().toMillis() / 1000.0,
						result.succeeded(), result.gaveUpAtDeadline(), result.gaveUpOnBudget()));
			}
			Path chart = out.resolve("retry-storm-" + size + ".png");
			ImageIO.write(chart(results, base), "png", chart.toFile());
		}
		Files.writeString(out.resolve("retry-storm.md"), table);
		System.out.print(table);
		System.out.printf(Locale.ROOT, "%nCharts and table in %s (%.1f s)%n", out.toAbsolutePath(),
				(System.nanoTime() - started) / 1e9);
	}

	private static List<Integer> parseSizes(String value) {
		List<Integer> sizes = new ArrayList<>();
		for (String part : value.split(",")) {
			sizes.add(Integer.parseInt(part.trim().replace("_", "")));
		}
		return sizes;
	}

	/** Attempts per second (each 100 ms slot × 10) over time, one line per strategy. */
	static BufferedImage chart(List<Result> results, Scenario scenario) {
		int width = 1200;
		int height = 640;
		int left = 80;
		int right = 210;
		int top = 50;
		int bottom = 60;
		int slots = 0;
		long peak = scenario.capacityPerSecond();
		for (Result result : results) {
			slots = Math.max(slots, result.callsPerSlot().length);
			for (long calls : result.callsPerSlot()) {
				peak = Math.max(peak, calls * (1000 / RetryStormSimulation.SLOT_MILLIS));
			}
		}
		double seconds = Math.max(1, slots * RetryStormSimulation.SLOT_MILLIS / 1000.0);
		double yMax = niceCeiling(peak);
		BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
		Graphics2D g = image.createGraphics();
		g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
		g.setColor(Color.WHITE);
		g.fillRect(0, 0, width, height);
		int plotW = width - left - right;
		int plotH = height - top - bottom;
		g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
		g.setColor(new Color(0xDDDDDD));
		for (int i = 0; i <= 5; i++) {
			int y = top + plotH - (int) (plotH * i / 5.0);
			g.drawLine(left, y, left + plotW, y);
		}
		g.setColor(Color.DARK_GRAY);
		g.drawRect(left, top, plotW, plotH);
		for (int i = 0; i <= 5; i++) {
			int y = top + plotH - (int) (plotH * i / 5.0);
			String label = String.format(Locale.ROOT, "%,d", (long) (yMax * i / 5));
			g.drawString(label, left - 8 - g.getFontMetrics().stringWidth(label), y + 4);
		}
		int step = (seconds > 60) ? 10 : 5;
		for (int s = 0; s <= seconds; s += step) {
			int x = left + (int) (plotW * s / seconds);
			g.drawLine(x, top + plotH, x, top + plotH + 4);
			g.drawString(s + " s", x - 8, top + plotH + 18);
		}
		g.drawString("time since the outage began", left + plotW / 2 - 80, height - 18);
		g.drawString("attempts per second", 10, top - 12);
		g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
		g.drawString(String.format(Locale.ROOT, "Retry storm: %,d clients, outage %d s, capacity %,d/s afterwards",
				scenario.clients(), scenario.outage().toSeconds(), scenario.capacityPerSecond()), left, 24);
		g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
		float[] dash = { 6f, 4f };
		g.setStroke(new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, dash, 0f));
		g.setColor(Color.GRAY);
		int recoveryX = left + (int) (plotW * scenario.outage().toSeconds() / seconds);
		g.drawLine(recoveryX, top, recoveryX, top + plotH);
		int capacityY = top + plotH - (int) (plotH * scenario.capacityPerSecond() / yMax);
		g.drawLine(left, capacityY, left + plotW, capacityY);
		g.drawString("capacity", left + plotW + 4, capacityY + 4);
		g.drawString("recovery", recoveryX + 4, top + 14);
		for (int r = 0; r < results.size(); r++) {
			Result result = results.get(r);
			g.setColor(COLORS[r % COLORS.length]);
			g.setStroke(new BasicStroke(result.label().contains("budget") ? 1.2f : 2f));
			long[] calls = result.callsPerSlot();
			int prevX = -1;
			int prevY = -1;
			for (int i = 0; i < calls.length; i++) {
				double perSecond = calls[i] * (1000.0 / RetryStormSimulation.SLOT_MILLIS);
				int x = left + (int) (plotW * (i * RetryStormSimulation.SLOT_MILLIS / 1000.0) / seconds);
				int y = top + plotH - (int) (plotH * perSecond / yMax);
				if (prevX >= 0) {
					g.drawLine(prevX, prevY, x, y);
				}
				prevX = x;
				prevY = y;
			}
			int legendY = top + 30 + r * 22;
			g.fillRect(left + plotW + 20, legendY - 8, 18, 8);
			g.setColor(Color.BLACK);
			g.drawString(result.label(), left + plotW + 44, legendY);
		}
		g.dispose();
		return image;
	}

	private static double niceCeiling(double value) {
		double magnitude = Math.pow(10, Math.floor(Math.log10(Math.max(1, value))));
		for (double factor : new double[] { 1, 2, 2.5, 5, 10 }) {
			if (factor * magnitude >= value) {
				return factor * magnitude;
			}
		}
		return 10 * magnitude;
	}

}
