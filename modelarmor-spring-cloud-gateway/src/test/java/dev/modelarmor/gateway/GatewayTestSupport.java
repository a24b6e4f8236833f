package dev.modelarmor.gateway;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.modelarmor.test.AutoConfigureModelArmorStandIn;
import dev.modelarmor.test.ModelArmorStandIn;
import org.junit.jupiter.api.BeforeEach;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A running gateway with a route per API (and one that de-identifies), in front of a {@link FakeModel} and
 * the Model Armor stand-in, both on loopback; the tests of every API share it.
 */
@SpringBootTest(classes = GatewayTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=reactive", "modelarmor.gateway.max-request-size=64KB",
				"modelarmor.gateway.max-event-size=4KB", "modelarmor.gateway.max-response-size=256KB",
				"modelarmor.tenants.acme.template-id=acme-strict",
				"modelarmor.tenants.acme.location=us-central1", "modelarmor.retry.initial-backoff=10ms",
				"modelarmor.retry.jitter=10ms", "modelarmor.retry.max-backoff=50ms", "modelarmor.retry.deadline=4s",
				"modelarmor.http.read-timeout=4s" })
// Real time, short deadlines: a Model Armor call that never gets its answer ends at the deadline, as in
// production, instead of waiting on a clock that does not move.
@AutoConfigureModelArmorStandIn(realTimeRetries = true)
abstract class GatewayTestSupport {

	static final FakeModel model = new FakeModel();

	static final JsonMapper json = JsonMapper.builder().build();

	static final String CARD = "4111 1111 1111 1111";

	@DynamicPropertySource
	static void routes(DynamicPropertyRegistry registry) {
		// all in one property source: a list binds from one source only
		String routes = "spring.cloud.gateway.server.webflux.routes";
		registry.add(routes + "[0].id", () -> "openai");
		registry.add(routes + "[0].uri", model::url);
		registry.add(routes + "[0].predicates[0]", () -> "Path=/v1/**");
		registry.add(routes + "[0].filters[0]", () -> "ModelArmor=openai");
		registry.add(routes + "[1].id", () -> "openai-deidentify");
		registry.add(routes + "[1].uri", model::url);
		registry.add(routes + "[1].predicates[0]", () -> "Path=/deidentify/**");
		registry.add(routes + "[1].filters[0].name", () -> "ModelArmor");
		registry.add(routes + "[1].filters[0].args.api", () -> "openai");
		registry.add(routes + "[1].filters[0].args.on-match", () -> "deidentify");
		registry.add(routes + "[1].filters[1]", () -> "StripPrefix=1");
		registry.add(routes + "[2].id", () -> "gemini");
		registry.add(routes + "[2].uri", model::url);
		registry.add(routes + "[2].predicates[0]", () -> "Path=/gemini/**");
		registry.add(routes + "[2].filters[0].name", () -> "ModelArmor");
		registry.add(routes + "[2].filters[0].args.api", () -> "gemini");
		registry.add(routes + "[2].filters[0].args.on-match", () -> "deidentify");
		registry.add(routes + "[2].filters[1]", () -> "StripPrefix=1");
		registry.add(routes + "[3].id", () -> "anthropic");
		registry.add(routes + "[3].uri", model::url);
		registry.add(routes + "[3].predicates[0]", () -> "Path=/anthropic/**");
		registry.add(routes + "[3].filters[0].name", () -> "ModelArmor");
		registry.add(routes + "[3].filters[0].args.api", () -> "anthropic");
		registry.add(routes + "[3].filters[0].args.on-match", () -> "deidentify");
		registry.add(routes + "[3].filters[1]", () -> "StripPrefix=1");
		registry.add(routes + "[4].id", () -> "own-templates");
		registry.add(routes + "[4].uri", model::url);
		registry.add(routes + "[4].predicates[0]", () -> "Path=/templates/**");
		registry.add(routes + "[4].filters[0].name", () -> "ModelArmor");
		registry.add(routes + "[4].filters[0].args.prompt-template", () -> "gateway-prompts");
		registry.add(routes + "[4].filters[0].args.response-template", () -> "gateway-answers");
		registry.add(routes + "[4].filters[1]", () -> "StripPrefix=1");
		registry.add(routes + "[5].id", () -> "tenants");
		registry.add(routes + "[5].uri", model::url);
		registry.add(routes + "[5].predicates[0]", () -> "Path=/tenants/**");
		registry.add(routes + "[5].filters[0].name", () -> "ModelArmor");
		registry.add(routes + "[5].filters[0].args.tenant-header", () -> "X-Tenant");
		registry.add(routes + "[5].filters[1]", () -> "StripPrefix=1");
		registry.add(routes + "[6].id", () -> "fail-open");
		registry.add(routes + "[6].uri", model::url);
		registry.add(routes + "[6].predicates[0]", () -> "Path=/fail-open/**");
		registry.add(routes + "[6].filters[0].name", () -> "ModelArmor");
		registry.add(routes + "[6].filters[0].args.fail-open", () -> "true");
		registry.add(routes + "[6].filters[1]", () -> "StripPrefix=1");
	}

	@LocalServerPort
	int port;

	@Autowired
	ModelArmorStandIn modelArmor;

	final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

	@BeforeEach
	void resetModel() {
		model.reset();
	}

	static List<String> splitEvery(String text, int size) {
		List<String> pieces = new ArrayList<>();
		for (int i = 0; i < text.length(); i += size) {
			pieces.add(text.substring(i, Math.min(text.length(), i + size)));
		}
		return pieces;
	}

	/** Posts and reads the whole answer, within a bound that a stalled stream fails rather than hangs. */
	HttpResponse<String> post(String path, String body, String... headers) throws Exception {
		HttpRequest.Builder request = HttpRequest.newBuilder(uri(path))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(body));
		if (headers.length > 0) {
			request.headers(headers);
		}
		return this.http.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString()).get(120, TimeUnit.SECONDS);
	}

	URI uri(String path) {
		return URI.create("http://127.0.0.1:" + this.port + path);
	}

}
