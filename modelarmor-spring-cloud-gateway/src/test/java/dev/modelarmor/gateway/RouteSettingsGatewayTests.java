package dev.modelarmor.gateway;

import java.net.http.HttpResponse;
import java.util.List;

import dev.modelarmor.gateway.internal.GatewayOutcomes;
import dev.modelarmor.observation.internal.MicrometerScreeningObserver;
import dev.modelarmor.test.ReceivedRequest;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A route's own templates, and the outcomes counted by route.
 */
class RouteSettingsGatewayTests extends GatewayTestSupport {

	@Autowired
	MeterRegistry meters;

	@Test
	void aRouteScreensWithItsOwnTemplates() throws Exception {
		model.answer(FakeModel.json(
				"{\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"Fine, own-templates.\"}}]}"));
		HttpResponse<String> response = post("/templates/v1/chat/completions",
				"{\"messages\":[{\"role\":\"user\",\"content\":\"How are you, own-templates?\"}]}");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(thisTestsRequests("own-templates")).extracting(ReceivedRequest::template)
			.containsExactly("gateway-prompts", "gateway-answers");
	}

	@Test
	void aRoutesOwnTemplatesAreValuesOfTheMetersTemplateTag() throws Exception {
		model.answer(FakeModel.json("{\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"Fine.\"}}]}"));
		post("/templates/v1/chat/completions", "{\"messages\":[{\"role\":\"user\",\"content\":\"How are you?\"}]}");
		assertThat(this.meters.find(MicrometerScreeningObserver.SCREENINGS).counters())
			.extracting((counter) -> counter.getId().getTag("template"))
			.contains("gateway-prompts", "gateway-answers")
			.doesNotContain("other");
	}

	@Test
	void aTenantNamedByTheRoutesHeaderIsScreenedWithItsTemplateAndAnUnknownOneIsRefused() throws Exception {
		model.answer(FakeModel.json("{\"choices\":[]}"));
		String body = "{\"messages\":[{\"role\":\"user\",\"content\":\"hi from a tenant\"}]}";
		assertThat(post("/tenants/v1/chat/completions", body, "X-Tenant", "acme").statusCode()).isEqualTo(200);
		assertThat(thisTestsRequests("from a tenant")).extracting(ReceivedRequest::template)
			.containsExactly("acme-strict");
		HttpResponse<String> unknown = post("/tenants/v1/chat/completions", body, "X-Tenant", "nobody");
		assertThat(unknown.statusCode()).isEqualTo(400);
		assertThat(unknown.body()).doesNotContain("nobody");
		assertThat(model.received()).hasSize(1);
	}

	@Test
	void aFailOpenRouteForwardsWhatModelArmorCouldNotScreenAndOthersStayClosed() throws Exception {
		this.modelArmor.failWith(503).always();
		model.answer(FakeModel.json("{\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"ok\"}}]}"));
		String body = "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
		HttpResponse<String> open = post("/fail-open/v1/chat/completions", body);
		assertThat(open.statusCode()).isEqualTo(200);
		assertThat(model.received()).hasSize(1);
		assertThat(post("/v1/chat/completions", body).statusCode()).isEqualTo(503);
		assertThat(model.received()).hasSize(1);
	}

	@Test
	void mediaModelArmorCannotScreenIsRefusedUnlessAllowed() throws Exception {
		String audio = "{\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"listen\"},"
				+ "{\"type\":\"input_audio\",\"input_audio\":{\"data\":\"UklGRiQAAABXQVZF\",\"format\":\"wav\"}}]}]}";
		HttpResponse<String> response = post("/v1/chat/completions", audio);
		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(json.readTree(response.body()).at("/error/code").asString()).isEqualTo("content_filter");
		String byUrl = "{\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"image_url\","
				+ "\"image_url\":{\"url\":\"https://example.com/cat.png\"}}]}]}";
		assertThat(post("/v1/chat/completions", byUrl).statusCode()).isEqualTo(400);
		assertThat(model.received()).isEmpty();
	}

	@Test
	void outcomesAreCountedByRoute() throws Exception {
		double before = count("openai", "prompt_refused");
		post("/v1/chat/completions", "{\"messages\":[{\"role\":\"user\",\"content\":\"jailbreak\"}]}");
		assertThat(count("openai", "prompt_refused")).isEqualTo(before + 1);
		double passed = count("own-templates", "passed");
		model.answer(FakeModel.json("{\"choices\":[]}"));
		post("/templates/v1/chat/completions", "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
		assertThat(count("own-templates", "passed")).isEqualTo(passed + 1);
	}

	private double count(String route, String outcome) {
		var counter = this.meters.find(GatewayOutcomes.EXCHANGES).tag("route", route).tag("outcome", outcome).counter();
		return (counter != null) ? counter.count() : 0;
	}

	/**
	 * The requests that screened this test's own texts: the tests share one gateway, and a screening an earlier
	 * test started (a stream's tail, a cancelled exchange) may still reach the stand-in after it was reset.
	 */
	private List<ReceivedRequest> thisTestsRequests(String marker) {
		return this.modelArmor.received().stream().filter((request) -> request.text().contains(marker)).toList();
	}

}
