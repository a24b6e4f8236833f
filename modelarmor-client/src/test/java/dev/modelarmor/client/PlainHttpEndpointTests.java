package dev.modelarmor.client;

import java.net.InetAddress;
import java.util.SplittableRandom;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.modelarmor.retry.VirtualTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Plain {@code http} only for loopback, with host names that really resolve: {@code localhost} is
 * accepted and a call over it reaches the server; a name that resolves, even to loopback (the machine's
 * own name here), is refused before anything is sent, because nothing is resolved when the endpoint is
 * checked and what a name resolves to can change after startup.
 */
class PlainHttpEndpointTests {

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	@Test
	void localhostResolvesToLoopbackAndACallOverPlainHttpReachesTheServer() throws Exception {
		assertThat(InetAddress.getAllByName("localhost")).allMatch(InetAddress::isLoopbackAddress);
		modelArmor.stubFor(post(urlPathEqualTo(ModelArmorTemplateTests.PROMPT_PATH)).willReturn(aResponse().withStatus(200)
			.withHeader("Content-Type", "application/json")
			.withBody(ModelArmorTemplateTests.NO_MATCH)));
		ModelArmorTemplate template = ModelArmorTemplate.builder()
			.endpoint(ModelArmorEndpoint.of("http://localhost:" + modelArmor.getPort()))
			.retryRuntime(new VirtualTime().runtime(new SplittableRandom(1)))
			.projectId("demo-project")
			.templateId("default-template")
			.build();

		assertThat(template.sanitizeUserPrompt("hello").matchFound()).isFalse();
		assertThat(modelArmor.getAllServeEvents()).hasSize(1);
	}

	@Test
	void aNameThatResolvesIsRefusedForPlainHttpWhereverItLeads() throws Exception {
		String name = InetAddress.getLocalHost().getHostName();
		InetAddress[] resolved = InetAddress.getAllByName(name);
		assertThat(name).isNotEqualToIgnoringCase("localhost");
		assertThat(resolved).isNotEmpty();

		assertThatIllegalArgumentException()
			.isThrownBy(() -> ModelArmorEndpoint.of("http://" + name + ":" + modelArmor.getPort()))
			.withMessageContaining("plain http");
		assertThat(ModelArmorEndpoint.of("https://" + name + ":" + modelArmor.getPort()).uri().getHost()).isEqualTo(name);
		assertThat(modelArmor.getAllServeEvents()).isEmpty();
	}

	@Test
	void aNameThatDoesNotResolveIsRefusedWithoutWaitingForTheResolver() {
		long started = System.nanoTime();
		for (int i = 0; i < 100; i++) {
			String name = "model-armor-" + i + ".invalid";
			assertThatIllegalArgumentException().isThrownBy(() -> ModelArmorEndpoint.of("http://" + name))
				.withMessageContaining("plain http");
		}
		// no lookup: a hundred refusals take far less than one resolver timeout
		assertThat(System.nanoTime() - started).isLessThan(2_000_000_000L);
	}

}
