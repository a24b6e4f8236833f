package dev.modelarmor.screening;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.modelarmor.client.ModelArmorOperations;
import dev.modelarmor.client.SanitizationResult;
import dev.modelarmor.screening.cache.VerdictCache;
import dev.modelarmor.screening.cache.VerdictCacheObserver;
import org.junit.jupiter.api.Test;

import org.springframework.cache.concurrent.ConcurrentMapCache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Cancelling {@link ModelArmorScreening#screenAsync} cancels the client's calls in flight behind the verdict
 * cache too, whether the text is one call or many windows, and stores nothing.
 */
class CancelledScreeningTests {

	private final List<CompletableFuture<SanitizationResult>> calls = new CopyOnWriteArrayList<>();

	private final ConcurrentMapCache store = new ConcurrentMapCache("verdicts");

	@Test
	void aCancelledScreeningOfOneCallCancelsItBehindTheCache() {
		assertCancelsTheCalls("hello", 1);
	}

	@Test
	void aCancelledScreeningOfManyWindowsCancelsThemBehindTheCache() {
		assertCancelsTheCalls("x".repeat(20_000), 2);
	}

	private void assertCancelsTheCalls(String prompt, int inFlight) {
		VerdictCache cache = new VerdictCache(this.store, Duration.ofMinutes(5), Clock.systemUTC(),
				VerdictCacheObserver.NONE);
		try (ModelArmorScreening screening = ModelArmorScreening.builder(neverAnswering())
			.windows(new WindowSettings(8192, 1024, 2, 64))
			.build()) {
			CompletableFuture<ScreeningDecision> decision = screening.withCache(cache)
				.screenAsync(ScreeningRequest.prompt("Chat.ask()", prompt));
			await().atMost(Duration.ofSeconds(10)).until(() -> this.calls.size() == inFlight);
			assertThat(decision.cancel(true)).isTrue();
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(this.calls).allSatisfy((call) -> assertThat(call).isCancelled()));
		}
		assertThat(this.store.getNativeCache()).as("nothing stored").isEmpty();
	}

	/** Non-blocking, naming its template (so the cache is asked); its calls never answer. */
	private ModelArmorOperations neverAnswering() {
		return NonBlockingClients.answering("never-answering client", () -> {
			CompletableFuture<SanitizationResult> call = new CompletableFuture<>();
			this.calls.add(call);
			return call;
		});
	}

}
