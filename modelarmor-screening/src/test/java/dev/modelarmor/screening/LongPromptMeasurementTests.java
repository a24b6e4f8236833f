package dev.modelarmor.screening;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.modelarmor.client.DataItem;
import dev.modelarmor.client.HeadReadingFilters;
import dev.modelarmor.client.ModelArmorOperations;
import dev.modelarmor.client.ModelArmorTemplate;
import dev.modelarmor.client.SanitizationResult;
import dev.modelarmor.client.SanitizationResult.Verdict;
import dev.modelarmor.client.SanitizeOptions;
import dev.modelarmor.client.admin.FloorSettingOperations;
import dev.modelarmor.client.admin.TemplateOperations;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What screening a 200,000-character prompt with an injection at its end costs at the defaults, against
 * WireMock on loopback: windows sent, calls made and wall time, with one call of the same prompt (which
 * misses the injection) as the baseline of the same run. Prints its figures; asserts only the counts.
 *
 * <p>Also prints what cutting costs a prompt that fits one window (the work every screening now does
 * before its one call), against that call.
 */
class LongPromptMeasurementTests {

	static final int ROUNDS = 21;

	static final HeadReadingFilters filters = new HeadReadingFilters();

	static final HeadReadingFilters.Received received = new HeadReadingFilters.Received();

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance()
		.options(wireMockConfig().dynamicPort().extensions(filters, received))
		.build();

	@Test
	void aTwoHundredThousandCharacterPromptWithTheInjectionAtTheEnd() throws InterruptedException {
		modelArmor.stubFor(post(urlPathMatching(".*:sanitizeUserPrompt"))
			.willReturn(aResponse().withTransformers(HeadReadingFilters.NAME)));
		String prompt = LongTextScreeningTests.padding(200_000 - HeadReadingFilters.INJECTION.length() - 1) + " "
				+ HeadReadingFilters.INJECTION;
		assertThat(prompt).hasSize(200_000);
		AtomicInteger calls = new AtomicInteger();
		ModelArmorTemplate template = LongTextScreeningTests.template(modelArmor.baseUrl());
		ModelArmorOperations counting = new CountingOperations(template, calls);
		try (LongTextScreening screening = new LongTextScreening(counting, WindowSettings.DEFAULTS)) {
			int windows = WindowCutter.split(prompt, WindowSettings.DEFAULTS).windows().size();
			List<Long> windowed = new ArrayList<>();
			List<Long> single = new ArrayList<>();
			List<Long> sent = new ArrayList<>();
			List<Long> made = new ArrayList<>();
			for (int round = -5; round < ROUNDS; round++) {
				received.reset();
				calls.set(0);
				long started = System.nanoTime();
				SanitizationResult result = screening.sanitizeUserPrompt(prompt);
				long elapsed = System.nanoTime() - started;
				// Calls cancelled on their way may still land: count them as sent.
				Thread.sleep(HeadReadingFilters.SETTLE_MILLIS);
				int requests = received.count();
				assertThat(result.verdict()).isEqualTo(Verdict.MATCHED);
				// The last window's match cancels the calls still in flight; some never reach the server.
				assertThat(calls.get()).isBetween(windows - WindowSettings.DEFAULTS.parallelism() + 1, windows);
				assertThat(requests).isBetween(windows - WindowSettings.DEFAULTS.parallelism() + 1, calls.get());
				received.reset();
				started = System.nanoTime();
				assertThat(template.sanitizeUserPrompt(prompt).verdict()).isEqualTo(Verdict.NO_MATCH);
				long baseline = System.nanoTime() - started;
				if (round >= 0) {
					windowed.add(elapsed);
					single.add(baseline);
					sent.add((long) requests);
					made.add((long) calls.get());
				}
			}
			System.out.printf(Locale.ROOT,
					"Long prompt, %d characters, injection at the end, defaults (8KB windows, 1KB overlap, 4 in flight):"
							+ " %d windows; windows sent (received by the server) %d to %d, calls made %d to %d;"
							+ " verdict MATCHED; wall time median %.1f ms (min %.1f, max %.1f) over %d rounds;"
							+ " one call of the same prompt (verdict NO_MATCH) median %.1f ms; ratio %.1f%n",
					prompt.length(), windows, Collections.min(sent), Collections.max(sent), Collections.min(made),
					Collections.max(made), median(windowed), min(windowed), max(windowed), ROUNDS, median(single),
					median(windowed) / median(single));
		}
	}

	@Test
	void cuttingAPromptThatFitsOneWindowAgainstItsOneCall() {
		modelArmor.stubFor(post(urlPathMatching(".*:sanitizeUserPrompt"))
			.willReturn(aResponse().withTransformers(HeadReadingFilters.NAME)));
		ModelArmorTemplate template = LongTextScreeningTests.template(modelArmor.baseUrl());
		for (int length : new int[] { 1_000, 8_000 }) {
			String prompt = LongTextScreeningTests.padding(length);
			List<Long> cut = new ArrayList<>();
			List<Long> call = new ArrayList<>();
			for (int round = -200; round < 1_000; round++) {
				long started = System.nanoTime();
				int windows = WindowCutter.split(prompt, WindowSettings.DEFAULTS).windows().size();
				long cutting = System.nanoTime() - started;
				assertThat(windows).isOne();
				if (round >= 0) {
					cut.add(cutting);
				}
				if (round >= 0 && round % 20 == 0) {
					started = System.nanoTime();
					template.sanitizeUserPrompt(prompt);
					call.add(System.nanoTime() - started);
				}
			}
			System.out.printf(Locale.ROOT,
					"Cutting a %d-character ASCII prompt that fits one window: median %.1f µs; its one call on loopback:"
							+ " median %.1f µs; cutting is %.1f%% of the call%n",
					length, median(cut) * 1_000, median(call) * 1_000, 100 * median(cut) / median(call));
		}
	}

	/** The median, in milliseconds. */
	private static double median(List<Long> nanos) {
		List<Long> sorted = new ArrayList<>(nanos);
		Collections.sort(sorted);
		return sorted.get(sorted.size() / 2) / 1e6;
	}

	private static double min(List<Long> nanos) {
		return Collections.min(nanos) / 1e6;
	}

	private static double max(List<Long> nanos) {
		return Collections.max(nanos) / 1e6;
	}

	/**
	 * Counts the sanitize calls that reach the client.
	 */
	private record CountingOperations(ModelArmorOperations delegate, AtomicInteger calls) implements ModelArmorOperations {

		@Override
		public SanitizationResult sanitizeUserPrompt(String prompt) {
			this.calls.incrementAndGet();
			return this.delegate.sanitizeUserPrompt(prompt);
		}

		@Override
		public SanitizationResult sanitizeUserPrompt(DataItem prompt) {
			this.calls.incrementAndGet();
			return this.delegate.sanitizeUserPrompt(prompt);
		}

		@Override
		public SanitizationResult sanitizeUserPrompt(DataItem prompt, SanitizeOptions options) {
			this.calls.incrementAndGet();
			return this.delegate.sanitizeUserPrompt(prompt, options);
		}

		@Override
		public SanitizationResult sanitizeModelResponse(String response) {
			this.calls.incrementAndGet();
			return this.delegate.sanitizeModelResponse(response);
		}

		@Override
		public SanitizationResult sanitizeModelResponse(String response, String userPrompt) {
			this.calls.incrementAndGet();
			return this.delegate.sanitizeModelResponse(response, userPrompt);
		}

		@Override
		public SanitizationResult sanitizeModelResponse(DataItem response, @Nullable String userPrompt) {
			this.calls.incrementAndGet();
			return this.delegate.sanitizeModelResponse(response, userPrompt);
		}

		@Override
		public SanitizationResult sanitizeModelResponse(DataItem response, @Nullable String userPrompt,
				SanitizeOptions options) {
			this.calls.incrementAndGet();
			return this.delegate.sanitizeModelResponse(response, userPrompt, options);
		}

		@Override
		public ModelArmorOperations withTemplate(String templateId) {
			return new CountingOperations(this.delegate.withTemplate(templateId), this.calls);
		}

		@Override
		public TemplateOperations templates() {
			return this.delegate.templates();
		}

		@Override
		public FloorSettingOperations floorSettings() {
			return this.delegate.floorSettings();
		}

	}

}
