package dev.modelarmor.reliability;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.modelarmor.client.ModelArmorEndpoint;
import dev.modelarmor.client.ModelArmorTemplate;
import dev.modelarmor.retry.BackoffSchedule;
import dev.modelarmor.retry.RetryRuntime;
import dev.modelarmor.retry.RetrySettings;
import dev.modelarmor.screening.ModelArmorScreening;
import dev.modelarmor.screening.ScreeningDecision;
import dev.modelarmor.screening.ScreeningRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code screenAsync} over the non-blocking client during a 503 outage, through real HTTP: every screening
 * fails closed by the deadline whatever the concurrency, without a thread per screening, and a cancelled
 * screening sends nothing more. Loose bounds: the machine is loaded.
 */
class NonBlockingOutageTests {

	private static final int SCREENINGS = 512;

	private static final Duration DEADLINE = Duration.ofSeconds(3);

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance()
		.options(wireMockConfig().dynamicPort().containerThreads(32))
		.build();

	private static ModelArmorTemplate template(Duration deadline) {
		return ModelArmorTemplate.builder()
			.endpoint(ModelArmorEndpoint.of(modelArmor.baseUrl()))
			.retrySettings(new RetrySettings(BackoffSchedule.GOOGLE_DEFAULT, deadline, true, true))
			.retryRuntime(RetryRuntime.system())
			.projectId("p")
			.templateId("t")
			.build();
	}

	@Test
	void everyScreeningFailsClosedByTheDeadlineWithoutAThreadEach() throws Exception {
		modelArmor.stubFor(post(urlPathMatching(".*:sanitizeUserPrompt")).willReturn(aResponse().withStatus(503)));
		try (ModelArmorTemplate template = template(DEADLINE);
				ModelArmorScreening screening = ModelArmorScreening.builder(template).build()) {
			int before = threadsOutsideTheServer();
			AtomicInteger peak = new AtomicInteger(before);
			long started = System.nanoTime();
			List<CompletableFuture<ScreeningDecision>> decisions = new ArrayList<>();
			AtomicLong longest = new AtomicLong();
			for (int i = 0; i < SCREENINGS; i++) {
				long asked = System.nanoTime();
				CompletableFuture<ScreeningDecision> decision = screening.screenAsync(
						ScreeningRequest.prompt("outage", "prompt " + i));
				decision.whenComplete((decided, failure) -> longest.accumulateAndGet(System.nanoTime() - asked, Math::max));
				decisions.add(decision);
			}
			long handedOver = System.nanoTime() - started;
			CompletableFuture<Void> all = CompletableFuture.allOf(decisions.toArray(CompletableFuture[]::new));
			while (!all.isDone() && System.nanoTime() - started < TimeUnit.SECONDS.toNanos(90)) {
				peak.accumulateAndGet(threadsOutsideTheServer(), Math::max);
				Thread.sleep(20);
			}
			all.get(30, TimeUnit.SECONDS);
			Duration slowest = Duration.ofNanos(System.nanoTime() - started);
			System.out.printf("%d screenAsync during a 503 outage: handed over in %d ms, all ended after %d ms, "
					+ "the longest screening %d ms, threads %d -> peak %d%n", SCREENINGS, handedOver / 1_000_000,
					slowest.toMillis(), longest.get() / 1_000_000, before, peak.get());

			assertThat(decisions).allSatisfy((decision) -> assertThat(decision.join())
				.isInstanceOf(ScreeningDecision.NotScreened.class));
			// loose: a loaded machine slows the hand-over of 512 calls down, never a wait of Model Armor's
			assertThat(Duration.ofNanos(handedOver)).as("screenAsync never waits for Model Armor")
				.isLessThan(Duration.ofSeconds(15));
			// very loose: under a load of other builds the timers and completions of 512 calls run late (one
			// Java 25 run on the shared 2-core machine: 15 s); the harness has the figures, this bounds a hang
			assertThat(Duration.ofNanos(longest.get())).as("each screening from its own start")
				.isLessThan(DEADLINE.plusSeconds(30));
			assertThat(slowest).isLessThan(DEADLINE.plusSeconds(60));
			// no thread per screening: where the JDK client would start a thread per completion, an exchange in
			// flight holds one of the transport's threads instead, bounded by its 256 exchange slots
			assertThat(peak.get() - before).as("threads added while %d screenings are in flight", SCREENINGS)
				.isLessThan(SCREENINGS * 3 / 4);
		}
	}

	@Test
	void cancellingAScreeningCancelsItsCall() throws Exception {
		modelArmor.stubFor(post(urlPathMatching(".*:sanitizeUserPrompt")).willReturn(aResponse().withStatus(503)));
		try (ModelArmorTemplate template = template(Duration.ofSeconds(30));
				ModelArmorScreening screening = ModelArmorScreening.builder(template).build()) {
			CompletableFuture<ScreeningDecision> decision = screening.screenAsync(ScreeningRequest.prompt("cancel", "hi"));
			await().atMost(Duration.ofSeconds(10))
				.until(() -> modelArmor.countRequestsMatching(postRequestedFor(urlPathMatching(".*")).build()).getCount() >= 1);

			decision.cancel(true);

			// the first retry would have come within 2 s
			Thread.sleep(3_000);
			modelArmor.verify(1, postRequestedFor(urlPathMatching(".*:sanitizeUserPrompt")));
		}
	}

	/** Live threads, those of WireMock's server (whose pool is its own) left out. */
	private static int threadsOutsideTheServer() {
		int count = 0;
		for (long id : ManagementFactory.getThreadMXBean().getAllThreadIds()) {
			var info = ManagementFactory.getThreadMXBean().getThreadInfo(id);
			if (info != null && !info.getThreadName().startsWith("qtp")) {
				count++;
			}
		}
		return count;
	}

}
