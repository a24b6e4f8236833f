package dev.modelarmor.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import dev.modelarmor.client.DataItem;
import dev.modelarmor.client.ModelArmorOperations;
import dev.modelarmor.client.SanitizeOptions;
import dev.modelarmor.guard.ModelArmorStubs;
import dev.modelarmor.internal.ModelArmorThreads;
import dev.modelarmor.screening.ModelArmorTaskExecutor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.test.context.assertj.AssertableApplicationContext;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every thread the starter starts in an application context is named {@code modelarmor-…} and has ended soon
 * after the context closed: blocking and non-blocking calls (with a retry), a screening task and the template
 * check all start theirs, and closing the context ends them. With {@code spring.threads.virtual.enabled=true} on
 * Java 21 and later, the waiting work is on virtual threads, as Spring Boot's own executors are.
 */
@Timeout(60)
class ModelArmorThreadsLifecycleTests {

	/** Loose: a loaded machine may take a while to let an interrupted thread end. */
	private static final Duration ENDED_WITHIN = Duration.ofSeconds(20);

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	@Test
	void everyThreadStartedInTheContextIsNamedAndEndsWithIt() throws Exception {
		Set<Thread> before = Set.copyOf(Thread.getAllStackTraces().keySet());
		ModelArmorStubs.runner(modelArmor).run((context) -> {
			assertThat(context).hasNotFailed();
			useEveryPool(context);
			assertThat(started(before)).as("threads the starter started while the context runs")
				.anySatisfy((name) -> assertThat(name).startsWith("modelarmor-"));
		});
		awaitEnded(before);
	}

	@Test
	@EnabledForJreRange(min = JRE.JAVA_21)
	void withVirtualThreadsEnabledTheWaitingWorkRunsOnVirtualThreads() throws Exception {
		ModelArmorStubs.runner(modelArmor).withPropertyValues("spring.threads.virtual.enabled=true").run((context) -> {
			assertThat(context.getBean(ModelArmorThreads.class).virtual()).isTrue();
			CompletableFuture<Thread> ran = new CompletableFuture<>();
			context.getBean(ModelArmorTaskExecutor.class).execute(() -> ran.complete(Thread.currentThread()));
			Thread thread = ran.get(10, TimeUnit.SECONDS);
			assertThat(thread.getName()).startsWith("modelarmor-screening-");
			assertThat(thread.toString()).startsWith("VirtualThread");
		});
	}

	@Test
	void withoutVirtualThreadsEnabledEveryThreadIsAPlatformThread() {
		ModelArmorStubs.runner(modelArmor)
			.run((context) -> assertThat(context.getBean(ModelArmorThreads.class).virtual()).isFalse());
	}

	private static void useEveryPool(AssertableApplicationContext context) throws Exception {
		modelArmor.resetAll();
		// one 503 first, so that a non-blocking call waits for its retry on the retry timer
		modelArmor.stubFor(post(urlPathMatching(".*:sanitizeUserPrompt")).inScenario("retry")
			.whenScenarioStateIs(Scenario.STARTED)
			.willReturn(aResponse().withStatus(503))
			.willSetStateTo("up"));
		modelArmor.stubFor(post(urlPathMatching(".*:sanitizeUserPrompt")).inScenario("retry")
			.whenScenarioStateIs("up")
			.willReturn(okJson(ModelArmorStubs.NO_MATCH)));
		modelArmor.stubFor(get(urlPathMatching(".*/templates/[^:]*"))
			.willReturn(okJson("{\"name\":\"t\"}")));
		ModelArmorOperations operations = context.getBean(ModelArmorOperations.class);
		operations.sanitizeUserPromptAsync(DataItem.text("hello"), SanitizeOptions.NONE, Runnable::run)
			.get(30, TimeUnit.SECONDS);
		operations.sanitizeUserPrompt("hello");
		CountDownLatch ran = new CountDownLatch(1);
		context.getBean(ModelArmorTaskExecutor.class).execute(ran::countDown);
		assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
		List<?> problems = context.getBean(ModelArmorTemplateCheck.class).check();
		assertThat(problems).isEmpty();
	}

	private static Set<String> started(Set<Thread> before) {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> !before.contains(thread))
			.map(Thread::getName)
			.collect(Collectors.toSet());
	}

	private static void awaitEnded(Set<Thread> before) throws InterruptedException {
		long deadline = System.nanoTime() + ENDED_WITHIN.toNanos();
		Set<String> left = lingering(before);
		while (!left.isEmpty() && System.nanoTime() < deadline) {
			Thread.sleep(100);
			left = lingering(before);
		}
		assertThat(left).as("threads of the starter alive after the context closed").isEmpty();
	}

	private static Set<String> lingering(Set<Thread> before) {
		return started(before).stream().filter((name) -> name.startsWith("modelarmor-")).collect(Collectors.toSet());
	}

}
