package dev.modelarmor.web;

import java.util.concurrent.CompletableFuture;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.modelarmor.autoconfigure.ModelArmorAutoConfiguration;
import dev.modelarmor.autoconfigure.ModelArmorGuardAutoConfiguration;
import dev.modelarmor.guard.ModelArmorStubs;
import dev.modelarmor.screening.ModelArmorTaskExecutor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;

import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static dev.modelarmor.guard.ModelArmorStubs.JAILBREAK;
import static dev.modelarmor.guard.ModelArmorStubs.answerEverythingClean;
import static dev.modelarmor.guard.ModelArmorStubs.answerPrompt;
import static dev.modelarmor.guard.ModelArmorStubs.failEverything;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * With {@code spring.threads.virtual.enabled=true} (Java 21 and later) the guard of a servlet
 * application answers as it does on platform threads, and the starter's executor runs on virtual threads.
 */
@EnabledForJreRange(min = JRE.JAVA_21)
class VirtualThreadsServletGuardTests {

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ModelArmorAutoConfiguration.class,
				ModelArmorGuardAutoConfiguration.class))
		.withPropertyValues(ModelArmorStubs.properties(modelArmor))
		.withPropertyValues("spring.threads.virtual.enabled=true")
		.withUserConfiguration(ModelArmorStubs.InstantRetries.class, ModelArmorExceptionHandlerTests.ChatWeb.class);

	@Test
	void theGuardAnswersBlocksAndFailsClosedOnVirtualThreads() {
		answerEverythingClean(modelArmor);
		answerPrompt(modelArmor, ModelArmorExceptionHandlerTests.JAILBREAK_MESSAGE, JAILBREAK);
		this.runner.run((context) -> {
			MockMvc mvc = MockMvcBuilders.webAppContextSetup(context).build();
			mvc.perform(chat(ModelArmorExceptionHandlerTests.QUESTION))
				.andExpect(status().isOk())
				.andExpect(jsonPath("$.reply").value("We are open from 9 to 5."));
			mvc.perform(chat(ModelArmorExceptionHandlerTests.JAILBREAK_MESSAGE))
				.andExpect(status().isBadRequest())
				.andExpect(jsonPath("$.filters[0]").value("pi_and_jailbreak"));
			CompletableFuture<Thread> thread = new CompletableFuture<>();
			context.getBean(ModelArmorTaskExecutor.class).execute(() -> thread.complete(Thread.currentThread()));
			assertThat((boolean) Thread.class.getMethod("isVirtual").invoke(thread.join())).isTrue();
		});
	}

	@Test
	void anOutageFailsClosedOnVirtualThreads() {
		failEverything(modelArmor);
		this.runner.run((context) -> {
			MockMvc mvc = MockMvcBuilders.webAppContextSetup(context).build();
			mvc.perform(chat(ModelArmorExceptionHandlerTests.QUESTION))
				.andExpect(status().isServiceUnavailable())
				.andExpect(jsonPath("$.title").value("Screening unavailable"));
		});
	}

	private static org.springframework.test.web.servlet.RequestBuilder chat(String message) {
		return post("/chat").contentType(MediaType.APPLICATION_JSON).content("{\"message\": \"" + message + "\"}");
	}

}
