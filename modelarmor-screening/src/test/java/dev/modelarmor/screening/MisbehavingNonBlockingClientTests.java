package dev.modelarmor.screening;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import dev.modelarmor.client.DataItem;
import dev.modelarmor.client.ModelArmorOperations;
import dev.modelarmor.client.SanitizationResult;
import dev.modelarmor.screening.cache.VerdictCache;
import dev.modelarmor.screening.cache.VerdictCacheObserver;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.cache.concurrent.ConcurrentMapCache;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A client whose non-blocking call misbehaves (throws instead of failing its future, or returns
 * {@code null}) ends the screening at once, with the verdict cache in front of it or not: the failure
 * reaches the caller's future, which would otherwise wait for the deadline's backstop, or forever.
 */
class MisbehavingNonBlockingClientTests {

	@ParameterizedTest
	@ValueSource(strings = { "throws", "returns null" })
	void theFailureEndsTheScreeningWithACache(String misbehaviour) {
		VerdictCache cache = new VerdictCache(new ConcurrentMapCache("verdicts"), Duration.ofMinutes(5),
				Clock.systemUTC(), VerdictCacheObserver.NONE);
		try (ModelArmorScreening screening = ModelArmorScreening.builder(client(misbehaviour)).build()) {
			assertFailsAtOnce(screening.withCache(cache).screenAsync(ScreeningRequest.prompt("Chat.ask()", "hello")));
			assertFailsAtOnce(screening.withCache(cache)
				.screenAsync(ScreeningRequest.response("Chat.ask()", "an answer", "hello")));
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "throws", "returns null" })
	void theFailureEndsTheScreeningWithoutACache(String misbehaviour) {
		try (ModelArmorScreening screening = ModelArmorScreening.builder(client(misbehaviour)).build()) {
			assertFailsAtOnce(screening.screenAsync(ScreeningRequest.prompt("Chat.ask()", "hello")));
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "throws", "returns null" })
	void theFailureEndsTheScreeningOfAnImage(String misbehaviour) {
		byte[] png = { (byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0 };
		try (ModelArmorScreening screening = ModelArmorScreening.builder(client(misbehaviour)).build()) {
			assertFailsAtOnce(screening.screenAsync(ScreeningRequest.prompt("Chat.ask()", DataItem.image(png))));
		}
	}

	private static void assertFailsAtOnce(CompletableFuture<ScreeningDecision> decision) {
		assertThatThrownBy(() -> decision.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class);
	}

	/** Non-blocking, naming its template (so the cache is asked), and misbehaving on every async call. */
	private static ModelArmorOperations client(String misbehaviour) {
		return NonBlockingClients.answering("misbehaving client", () -> misbehave(misbehaviour));
	}

	private static @Nullable CompletableFuture<SanitizationResult> misbehave(String misbehaviour) {
		if ("throws".equals(misbehaviour)) {
			throw new IllegalStateException("a client bug");
		}
		return null;
	}

}
