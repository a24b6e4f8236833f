package dev.modelarmor.ai;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.modelarmor.ai.advisor.ModelArmorAdvisorOptions;
import dev.modelarmor.autoconfigure.ModelArmorAutoConfiguration;
import dev.modelarmor.autoconfigure.ModelArmorGuardAutoConfiguration;
import dev.modelarmor.autoconfigure.ModelArmorObservationAutoConfiguration;
import dev.modelarmor.autoconfigure.ModelArmorSpringAiAutoConfiguration;
import dev.modelarmor.guard.ModelArmorStubs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.model.chat.client.autoconfigure.ChatClientAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static dev.modelarmor.guard.ModelArmorStubs.failEverything;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Many streams during a Model Armor outage (every call answered 503), with real-time retries and a 3 s
 * deadline: each stream ends with the fail-closed refusal near its deadline, whatever the others do, and
 * the application's own {@code boundedElastic} work is not held up behind the starter's retries (which
 * no longer run there). Loose bounds: the machine is shared; the figures belong in the benchmarks.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class StreamOutageTests {

	static final int STREAMS = 64;

	static final Duration DEADLINE = Duration.ofSeconds(3);

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance()
		.options(wireMockConfig().dynamicPort().containerThreads(STREAMS + 16))
		.build();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ModelArmorObservationAutoConfiguration.class,
				ModelArmorAutoConfiguration.class, ModelArmorGuardAutoConfiguration.class,
				ModelArmorSpringAiAutoConfiguration.class, ChatClientAutoConfiguration.class))
		.withPropertyValues(ModelArmorStubs.properties(modelArmor))
		.withPropertyValues("modelarmor.spring-ai.advisor.enabled=true", "modelarmor.retry.deadline=3s",
				// every stream retries until its deadline: a retry budget would stop them early
				"modelarmor.retry.budget.enabled=false")
		.withUserConfiguration(SpringAiFixtures.Model.class);

	@Test
	void everyStreamEndsWithTheRefusalWithinItsDeadlineAndBoundedElasticStaysFree() {
		failEverything(modelArmor);
		this.runner.run((context) -> {
			SpringAiFixtures.model(context).streaming("never", " sent");
			ChatClient client = SpringAiFixtures.chatClient(context);
			long start = System.nanoTime();
			Mono<List<Long>> ends = Flux.range(0, STREAMS)
				.flatMap((i) -> client.prompt()
					.user("OUTAGE-Q-" + i + " hello")
					.stream()
					.chatClientResponse()
					.collectList()
					.doOnNext((chunks) -> assertRefusal(chunks))
					.map((chunks) -> System.nanoTime() - start), STREAMS)
				.collectList()
				.cache();
			ends.subscribe();
			// an unrelated task of the application, started while every stream retries
			Thread.sleep(DEADLINE.toMillis() / 3);
			long queued = System.nanoTime();
			long ran = Mono.fromCallable(System::nanoTime).subscribeOn(Schedulers.boundedElastic())
				.block(Duration.ofSeconds(30));
			List<Long> elapsed = ends.block(Duration.ofSeconds(60));
			assertThat(elapsed).hasSize(STREAMS);
			long slowest = elapsed.stream().mapToLong(Long::longValue).max().orElseThrow();
			assertThat(Duration.ofNanos(slowest)).isLessThan(DEADLINE.plusSeconds(4));
			assertThat(Duration.ofNanos(ran - queued)).isLessThan(Duration.ofSeconds(1));
		});
		assertThat(ModelArmorStubs.promptRequests(modelArmor)).hasSizeGreaterThan(STREAMS);
	}

	private static void assertRefusal(List<ChatClientResponse> chunks) {
		assertThat(chunks).singleElement()
			.satisfies((refusal) -> assertThat(refusal.chatResponse().getResult().getOutput().getText())
				.isEqualTo(ModelArmorAdvisorOptions.DEFAULT_REFUSAL));
	}

}
