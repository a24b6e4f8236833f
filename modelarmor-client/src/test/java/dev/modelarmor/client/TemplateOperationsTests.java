package dev.modelarmor.client;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.UUID;

import com.github.tomakehurst.wiremock.client.MappingBuilder;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.http.Fault;
import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import com.google.protobuf.util.JsonFormat;
import dev.modelarmor.client.admin.FilterConfig;
import dev.modelarmor.client.admin.FilterEnforcement;
import dev.modelarmor.client.admin.PiAndJailbreakFilterSettings;
import dev.modelarmor.client.admin.RaiFilterSettings;
import dev.modelarmor.client.admin.RaiFilterSettings.RaiFilter;
import dev.modelarmor.client.admin.Template;
import dev.modelarmor.client.admin.TemplateAlreadyExistsException;
import dev.modelarmor.client.admin.TemplateMetadata;
import dev.modelarmor.client.admin.TemplateOperations;
import dev.modelarmor.client.internal.ModelArmorJson;
import dev.modelarmor.retry.VirtualTime;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.absent;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.delete;
import static com.github.tomakehurst.wiremock.client.WireMock.deleteRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.patch;
import static com.github.tomakehurst.wiremock.client.WireMock.patchRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * {@link ModelArmorOperations#templates()} over real HTTP against WireMock on loopback: paging, query
 * encoding, request ids that make changes safe to retry, and the 409 of a retried create. Waits between
 * attempts run in virtual time.
 */
public class TemplateOperationsTests {

	static final String TEMPLATES = "/v1/projects/p/locations/l/templates";

	static final String NAME = "projects/p/locations/l/templates/";

	static final String ALREADY_EXISTS = """
			{"error": {"code": 409, "message": "Template already exists.", "status": "ALREADY_EXISTS"}}
			""";

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	VirtualTime time;

	TemplateOperations templates;

	@BeforeEach
	void createClient() {
		this.time = new VirtualTime();
		this.templates = ModelArmorTemplate.builder()
			.endpoint(ModelArmorEndpoint.of(modelArmor.baseUrl()))
			.retryRuntime(this.time.runtime(new SplittableRandom(7)))
			.projectId("p")
			.location("l")
			.build()
			.templates();
	}

	// --- list ---

	@Test
	void listReadsEveryPageAndKeepsTheOrder() {
		modelArmor.stubFor(get(urlPathEqualTo(TEMPLATES)).withQueryParam("pageToken", absent())
			.willReturn(okJson(page("page-2", "t1", "t2"))));
		modelArmor.stubFor(get(urlPathEqualTo(TEMPLATES)).withQueryParam("pageToken", equalTo("page-2"))
			.willReturn(okJson(page("page 3/+=", "t3"))));
		modelArmor.stubFor(get(urlPathEqualTo(TEMPLATES)).withQueryParam("pageToken", equalTo("page 3/+="))
			.willReturn(okJson(page(null, "t4", "t5"))));

		List<Template> all = this.templates.list();

		assertThat(all).extracting(Template::id).containsExactly("t1", "t2", "t3", "t4", "t5");
		assertThat(all.get(0).name()).isEqualTo(NAME + "t1");
		modelArmor.verify(3, getRequestedFor(urlPathEqualTo(TEMPLATES)));
	}

	@Test
	void listOfAnEmptyLocationIsEmpty() {
		modelArmor.stubFor(get(urlPathEqualTo(TEMPLATES)).willReturn(okJson("{}")));

		assertThat(this.templates.list()).isEmpty();
		modelArmor.verify(1, getRequestedFor(urlPathEqualTo(TEMPLATES)).withQueryParam("filter", absent())
			.withQueryParam("orderBy", absent())
			.withQueryParam("pageToken", absent()));
	}

	@Test
	void filterAndOrderByAreSentEncodedOnEveryPage() {
		String filter = "labels.env=\"prod & test\" AND name:\"a=b\" +x %20";
		String orderBy = "name desc";
		modelArmor.stubFor(get(urlPathEqualTo(TEMPLATES)).withQueryParam("pageToken", absent())
			.willReturn(okJson(page("next", "t1"))));
		modelArmor.stubFor(get(urlPathEqualTo(TEMPLATES)).withQueryParam("pageToken", equalTo("next"))
			.willReturn(okJson(page(null, "t2"))));

		assertThat(this.templates.list(filter, orderBy)).extracting(Template::id).containsExactly("t1", "t2");

		modelArmor.verify(2, getRequestedFor(urlPathEqualTo(TEMPLATES)).withQueryParam("filter", equalTo(filter))
			.withQueryParam("orderBy", equalTo(orderBy)));
		// Nothing of the filter leaked into other parameters: '&' and '=' were encoded.
		for (ServeEvent event : modelArmor.getAllServeEvents()) {
			assertThat(event.getRequest().getUrl()).doesNotContain("prod & test").doesNotContain(" ");
			assertThat(event.getRequest().getQueryParams().keySet()).isSubsetOf("filter", "orderBy", "pageToken");
		}
	}

	@Test
	void aPageTokenAnsweredTwiceInARowFailsInsteadOfLooping() {
		modelArmor.stubFor(get(urlPathEqualTo(TEMPLATES)).withQueryParam("pageToken", absent())
			.willReturn(okJson(page("same", "t1"))));
		modelArmor.stubFor(get(urlPathEqualTo(TEMPLATES)).withQueryParam("pageToken", equalTo("same"))
			.willReturn(okJson(page("same", "t2"))));

		assertThatExceptionOfType(ModelArmorException.class).isThrownBy(() -> this.templates.list())
			.withMessageContaining("page token");
		modelArmor.verify(2, getRequestedFor(urlPathEqualTo(TEMPLATES)));
	}

	@Test
	void aPageTokenThatComesBackAfterAnotherFailsInsteadOfLooping() {
		// a -> b -> a would loop for ever; if the client goes on anyway, a fourth page ends the list so
		// that the test fails instead of hanging.
		pagesInSequence(page("a", "t1"), page("b", "t2"), page("a", "t3"), page(null, "t4"));

		assertThatExceptionOfType(ModelArmorException.class).isThrownBy(() -> this.templates.list())
			.withMessageContaining("page token");
		modelArmor.verify(3, getRequestedFor(urlPathEqualTo(TEMPLATES)));
	}

	@Test
	void anEmptyNextPageTokenEndsTheList() {
		modelArmor.stubFor(get(urlPathEqualTo(TEMPLATES)).willReturn(okJson(page("", "t1"))));

		assertThat(this.templates.list()).extracting(Template::id).containsExactly("t1");
		modelArmor.verify(1, getRequestedFor(urlPathEqualTo(TEMPLATES)));
	}

	// --- get ---

	@Test
	void getReadsOneTemplateWithItsFields() {
		modelArmor.stubFor(get(urlPathEqualTo(TEMPLATES + "/my-tpl")).willReturn(okJson("""
				{"name": "projects/p/locations/l/templates/my-tpl",
				 "createTime": "2026-01-02T03:04:05.123456789Z", "updateTime": "2026-01-03T00:00:00Z",
				 "labels": {"env": "prod", "team": "ai"},
				 "filterConfig": {"piAndJailbreakFilterSettings": {"filterEnforcement": "ENABLED",
				   "confidenceLevel": "MEDIUM_AND_ABOVE"}},
				 "templateMetadata": {"logSanitizeOperations": true}}
				""")));

		Template template = this.templates.get("my-tpl");

		assertThat(template.id()).isEqualTo("my-tpl");
		assertThat(template.createTime()).isEqualTo(Instant.parse("2026-01-02T03:04:05.123456789Z"));
		assertThat(template.updateTime()).isEqualTo(Instant.parse("2026-01-03T00:00:00Z"));
		assertThat(template.labels()).containsExactly(Map.entry("env", "prod"), Map.entry("team", "ai"));
		assertThat(template.filterConfig().piAndJailbreakFilterSettings())
			.isEqualTo(new PiAndJailbreakFilterSettings(FilterEnforcement.ENABLED,
					DetectionConfidenceLevel.MEDIUM_AND_ABOVE));
		assertThat(template.templateMetadata().logSanitizeOperations()).isTrue();
		modelArmor.verify(1, getRequestedFor(urlPathEqualTo(TEMPLATES + "/my-tpl")).withQueryParam("requestId", absent()));
	}

	@Test
	void getOfAMissingTemplateIsA404() {
		modelArmor.stubFor(get(urlPathEqualTo(TEMPLATES + "/nope")).willReturn(aResponse().withStatus(404)
			.withHeader("Content-Type", "application/json")
			.withBody("{\"error\": {\"code\": 404, \"message\": \"Not found\", \"status\": \"NOT_FOUND\"}}")));

		assertThatExceptionOfType(ModelArmorApiException.class).isThrownBy(() -> this.templates.get("nope"))
			.satisfies((ex) -> {
				assertThat(ex.statusCode()).isEqualTo(404);
				assertThat(ex.status()).isEqualTo("NOT_FOUND");
				assertThat(ex.attempts()).isEqualTo(1);
			});
	}

	@Test
	void aGetAnswered503IsRetried() {
		failThenAnswer(get(urlPathEqualTo(TEMPLATES + "/t1")), aResponse().withStatus(503), okJson(template("t1")));

		assertThat(this.templates.get("t1").id()).isEqualTo("t1");
		modelArmor.verify(2, getRequestedFor(urlPathEqualTo(TEMPLATES + "/t1")));
		assertThat(this.time.sleeps()).hasSize(1);
	}

	// --- create ---

	@Test
	void createPostsTheTemplateWithItsIdAndAVersion4RequestId() throws Exception {
		modelArmor.stubFor(post(urlPathEqualTo(TEMPLATES)).willReturn(okJson(template("new-tpl"))));
		Template given = new Template(NAME + "ignored", Instant.parse("2020-01-01T00:00:00Z"),
				Instant.parse("2020-01-02T00:00:00Z"), Map.of("env", "prod"), filters(), null);

		Template created = this.templates.create("new-tpl", given);

		assertThat(created.id()).isEqualTo("new-tpl");
		ServeEvent event = onlyEvent();
		assertThat(event.getRequest().getMethod().getName()).isEqualTo("POST");
		assertThat(event.getRequest().queryParameter("templateId").firstValue()).isEqualTo("new-tpl");
		assertVersion4(requestId(event));
		JsonNode body = ModelArmorJson.mapper().readTree(event.getRequest().getBodyAsString());
		assertThat(body.has("name")).isFalse();
		assertThat(body.has("createTime")).isFalse();
		assertThat(body.has("updateTime")).isFalse();
		var official = com.google.cloud.modelarmor.v1.Template.newBuilder();
		JsonFormat.parser().merge(event.getRequest().getBodyAsString(), official);
		assertThat(official.getLabelsMap()).containsExactly(Map.entry("env", "prod"));
		assertThat(official.getFilterConfig().getRaiSettings().getRaiFiltersList()).hasSize(1);
		assertThat(official.getFilterConfig().getPiAndJailbreakFilterSettings().getFilterEnforcementValue())
			.isEqualTo(com.google.cloud.modelarmor.v1.PiAndJailbreakFilterSettings.PiAndJailbreakFilterEnforcement.ENABLED
				.getNumber());
	}

	@Test
	void aTemplateIdIsEncodedAsOneQueryValue() {
		modelArmor.stubFor(post(urlPathEqualTo(TEMPLATES)).willReturn(okJson(template("x"))));

		this.templates.create("a&requestId=b", Template.of(filters()));

		ServeEvent event = onlyEvent();
		assertThat(event.getRequest().queryParameter("templateId").values()).containsExactly("a&requestId=b");
		assertThat(event.getRequest().queryParameter("requestId").values()).hasSize(1);
	}

	@Test
	void aCreateRetriedAfter503AndAResetCarriesTheSameRequestIdEveryTime() {
		MappingBuilder create = post(urlPathEqualTo(TEMPLATES));
		modelArmor.stubFor(create.inScenario("create").whenScenarioStateIs(STARTED)
			.willReturn(aResponse().withStatus(503)).willSetStateTo("reset"));
		modelArmor.stubFor(post(urlPathEqualTo(TEMPLATES)).inScenario("create").whenScenarioStateIs("reset")
			.willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)).willSetStateTo("ok"));
		modelArmor.stubFor(post(urlPathEqualTo(TEMPLATES)).inScenario("create").whenScenarioStateIs("ok")
			.willReturn(okJson(template("new-tpl"))));

		assertThat(this.templates.create("new-tpl", Template.of(filters())).id()).isEqualTo("new-tpl");

		List<String> ids = requestIds();
		assertThat(ids).hasSize(3);
		assertThat(ids).containsOnly(ids.get(0));
		assertVersion4(ids.get(0));
		assertThat(this.time.sleeps()).hasSize(2);
	}

	@Test
	void twoSeparateCallsCarryDifferentRequestIds() {
		modelArmor.stubFor(post(urlPathEqualTo(TEMPLATES)).willReturn(okJson(template("t"))));
		modelArmor.stubFor(patch(urlPathEqualTo(TEMPLATES + "/t")).willReturn(okJson(template("t"))));
		modelArmor.stubFor(delete(urlPathEqualTo(TEMPLATES + "/t")).willReturn(okJson("{}")));

		this.templates.create("t", Template.of(filters()));
		this.templates.create("t", Template.of(filters()));
		this.templates.update("t", Template.of(filters()));
		this.templates.update("t", Template.of(filters()));
		this.templates.delete("t");
		this.templates.delete("t");

		List<String> ids = requestIds();
		assertThat(ids).hasSize(6).doesNotHaveDuplicates();
		ids.forEach(TemplateOperationsTests::assertVersion4);
	}

	@Test
	void a409OnTheFirstAttemptIsNotOursAndIsNotRetried() {
		modelArmor.stubFor(post(urlPathEqualTo(TEMPLATES)).willReturn(conflict()));

		assertThatExceptionOfType(TemplateAlreadyExistsException.class)
			.isThrownBy(() -> this.templates.create("taken", Template.of(filters())))
			.satisfies((ex) -> {
				assertThat(ex.mayBeOwnEarlierAttempt()).isFalse();
				assertThat(ex.templateId()).isEqualTo("taken");
				assertThat(ex.statusCode()).isEqualTo(409);
				assertThat(ex.status()).isEqualTo("ALREADY_EXISTS");
				assertThat(ex.attempts()).isEqualTo(1);
				assertThat(ex.earlierAttemptOutcomeUnknown()).isFalse();
				assertThat(ex.getMessage()).contains("taken", "already exists").doesNotContain("get(");
			});
		modelArmor.verify(1, postRequestedFor(urlPathEqualTo(TEMPLATES)));
		assertThat(this.time.sleeps()).isEmpty();
	}

	@Test
	void a409AfterAGatewayTimeoutMayBeOurOwnCreateToo() {
		failThenAnswer(post(urlPathEqualTo(TEMPLATES)), aResponse().withStatus(504), conflict());

		assertThatExceptionOfType(TemplateAlreadyExistsException.class)
			.isThrownBy(() -> this.templates.create("mine", Template.of(filters())))
			.satisfies((ex) -> {
				assertThat(ex.mayBeOwnEarlierAttempt()).isTrue();
				assertThat(ex.attempts()).isEqualTo(2);
			});
	}

	@Test
	void a409AfterAResetMayBeOurOwnCreateAndSaysToGetItFirst() {
		failThenAnswer(post(urlPathEqualTo(TEMPLATES)), aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER),
				conflict());

		assertThatExceptionOfType(ModelArmorApiException.class)
			.isThrownBy(() -> this.templates.create("mine", Template.of(filters())))
			.isInstanceOf(TemplateAlreadyExistsException.class)
			.satisfies((ex) -> {
				TemplateAlreadyExistsException exists = (TemplateAlreadyExistsException) ex;
				assertThat(exists.mayBeOwnEarlierAttempt()).isTrue();
				assertThat(ex.earlierAttemptOutcomeUnknown()).isTrue();
				assertThat(ex.statusCode()).isEqualTo(409);
				assertThat(ex.status()).isEqualTo("ALREADY_EXISTS");
				assertThat(ex.attempts()).isEqualTo(2);
				assertThat(ex.getMessage()).contains("'mine'", "get(\"mine\")");
				assertThat(ex.getCause()).isInstanceOf(ModelArmorApiException.class);
			});
		List<String> ids = requestIds();
		assertThat(ids).hasSize(2).containsOnly(ids.get(0));
	}

	@Test
	void a409AfterA503IsNotOurOwnCreate() {
		failThenAnswer(post(urlPathEqualTo(TEMPLATES)), aResponse().withStatus(503), conflict());

		assertThatExceptionOfType(TemplateAlreadyExistsException.class)
			.isThrownBy(() -> this.templates.create("taken", Template.of(filters())))
			.satisfies((ex) -> assertThat(ex.mayBeOwnEarlierAttempt()).isFalse());
	}

	// --- update ---

	@Test
	void updateSendsTheMaskOfTheGivenFieldsAndARequestId() throws Exception {
		modelArmor.stubFor(patch(urlPathEqualTo(TEMPLATES + "/t1")).willReturn(okJson(template("t1"))));
		Template changes = new Template(NAME + "t1", Instant.parse("2020-01-01T00:00:00Z"), null,
				Map.of("env", "prod"), filters(), null);

		assertThat(this.templates.update("t1", changes).id()).isEqualTo("t1");

		ServeEvent event = onlyEvent();
		assertThat(event.getRequest().queryParameter("updateMask").values()).containsExactly("labels,filterConfig");
		assertVersion4(requestId(event));
		var official = com.google.cloud.modelarmor.v1.Template.newBuilder();
		JsonFormat.parser().merge(event.getRequest().getBodyAsString(), official);
		assertThat(official.getName()).isEmpty();
		assertThat(official.hasCreateTime()).isFalse();
		assertThat(official.getLabelsMap()).containsExactly(Map.entry("env", "prod"));
	}

	@Test
	void updateOfMetadataOnlyMasksMetadataOnly() {
		modelArmor.stubFor(patch(urlPathEqualTo(TEMPLATES + "/t1")).willReturn(okJson(template("t1"))));
		TemplateMetadata metadata = new TemplateMetadata(null, null, null, null, null, null, true, null, null);

		this.templates.update("t1", new Template(null, null, null, null, null, metadata));

		modelArmor.verify(1, patchRequestedFor(urlPathEqualTo(TEMPLATES + "/t1"))
			.withQueryParam("updateMask", equalTo("templateMetadata")));
	}

	@Test
	void anExplicitMaskIsSentAsGiven() {
		modelArmor.stubFor(patch(urlPathEqualTo(TEMPLATES + "/t1")).willReturn(okJson(template("t1"))));

		this.templates.update("t1", Template.of(filters()),
				List.of("filterConfig.raiSettings", "labels", "filterConfig.piAndJailbreakFilterSettings"));

		modelArmor.verify(1, patchRequestedFor(urlPathEqualTo(TEMPLATES + "/t1"))
			.withQueryParam("updateMask",
					equalTo("filterConfig.raiSettings,labels,filterConfig.piAndJailbreakFilterSettings"))
			.withQueryParam("requestId", com.github.tomakehurst.wiremock.client.WireMock.matching(".+")));
	}

	@Test
	void anEmptyExplicitMaskSendsNoMask() {
		modelArmor.stubFor(patch(urlPathEqualTo(TEMPLATES + "/t1")).willReturn(okJson(template("t1"))));

		this.templates.update("t1", Template.of(filters()), List.of());

		modelArmor.verify(1, patchRequestedFor(urlPathEqualTo(TEMPLATES + "/t1")).withQueryParam("updateMask", absent()));
	}

	@Test
	void anUpdateThatGivesNoFieldFailsBeforeAnyRequest() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.templates.update("t1", new Template(NAME + "t1", Instant.EPOCH, null, null, null, null)))
			.withMessageContaining("no field");
		assertThat(modelArmor.getAllServeEvents()).isEmpty();
	}

	@Test
	void anUpdateRetriedAfter503KeepsItsRequestId() {
		failThenAnswer(patch(urlPathEqualTo(TEMPLATES + "/t1")), aResponse().withStatus(503), okJson(template("t1")));

		this.templates.update("t1", Template.of(filters()));

		List<String> ids = requestIds();
		assertThat(ids).hasSize(2).containsOnly(ids.get(0));
	}

	// --- delete ---

	@Test
	void deleteSendsARequestIdAndAcceptsAnEmptyObject() {
		modelArmor.stubFor(delete(urlPathEqualTo(TEMPLATES + "/t1")).willReturn(okJson("{}")));

		this.templates.delete("t1");

		ServeEvent event = onlyEvent();
		assertThat(event.getRequest().getMethod().getName()).isEqualTo("DELETE");
		assertVersion4(requestId(event));
		assertThat(event.getRequest().getBodyAsString()).isEmpty();
	}

	@Test
	void aDeleteRetriedAfterAResetKeepsItsRequestId() {
		failThenAnswer(delete(urlPathEqualTo(TEMPLATES + "/t1")), aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER),
				okJson("{}"));

		this.templates.delete("t1");

		modelArmor.verify(2, deleteRequestedFor(urlPathEqualTo(TEMPLATES + "/t1")));
		List<String> ids = requestIds();
		assertThat(ids).hasSize(2).containsOnly(ids.get(0));
	}

	@Test
	void anEmptyTemplateIdIsRejectedBeforeAnyRequest() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.templates.get(""));
		assertThatIllegalArgumentException().isThrownBy(() -> this.templates.create(" ", Template.of(filters())));
		assertThatIllegalArgumentException().isThrownBy(() -> this.templates.delete(""));
		modelArmor.verify(0, anyRequestedFor(anyUrl()));
	}

	// --- helpers ---

	public static FilterConfig filters() {
		return new FilterConfig(
				new RaiFilterSettings(List.of(new RaiFilter(RaiFilterType.HATE_SPEECH, DetectionConfidenceLevel.HIGH))),
				null, new PiAndJailbreakFilterSettings(FilterEnforcement.ENABLED, DetectionConfidenceLevel.LOW_AND_ABOVE),
				null);
	}

	static String template(String id) {
		return "{\"name\": \"" + NAME + id + "\", \"createTime\": \"2026-01-02T03:04:05Z\", "
				+ "\"filterConfig\": {\"piAndJailbreakFilterSettings\": {\"filterEnforcement\": \"ENABLED\"}}}";
	}

	static String page(String nextPageToken, String... ids) {
		Map<String, Object> page = new LinkedHashMap<>();
		List<Object> templates = new ArrayList<>();
		for (String id : ids) {
			templates.add(ModelArmorJson.mapper().readValue(template(id), Map.class));
		}
		page.put("templates", templates);
		if (nextPageToken != null) {
			page.put("nextPageToken", nextPageToken);
		}
		return ModelArmorJson.mapper().writeValueAsString(page);
	}

	private static void pagesInSequence(String... pages) {
		String state = STARTED;
		for (int i = 0; i < pages.length; i++) {
			String next = "page-" + (i + 2);
			modelArmor.stubFor(get(urlPathEqualTo(TEMPLATES)).inScenario("pages")
				.whenScenarioStateIs(state)
				.willReturn(okJson(pages[i]))
				.willSetStateTo(next));
			state = next;
		}
	}

	private static void failThenAnswer(MappingBuilder request, ResponseDefinitionBuilder failure,
			ResponseDefinitionBuilder answer) {
		modelArmor.stubFor(request.inScenario("retry").whenScenarioStateIs(STARTED).willReturn(failure)
			.willSetStateTo("answered"));
		modelArmor.stubFor(any(anyUrl()).inScenario("retry").whenScenarioStateIs("answered").willReturn(answer));
	}

	static ResponseDefinitionBuilder okJson(String body) {
		return aResponse().withStatus(200).withHeader("Content-Type", "application/json").withBody(body);
	}

	private static ResponseDefinitionBuilder conflict() {
		return aResponse().withStatus(409).withHeader("Content-Type", "application/json").withBody(ALREADY_EXISTS);
	}

	private static ServeEvent onlyEvent() {
		List<ServeEvent> events = modelArmor.getAllServeEvents();
		assertThat(events).hasSize(1);
		return events.get(0);
	}

	private static String requestId(ServeEvent event) {
		List<String> values = event.getRequest().queryParameter("requestId").values();
		assertThat(values).hasSize(1);
		return values.get(0);
	}

	/** The request ids of every request received, oldest first. */
	private static List<String> requestIds() {
		return modelArmor.getAllServeEvents()
			.stream()
			.sorted(Comparator.comparing((ServeEvent event) -> event.getRequest().getLoggedDate()))
			.map(TemplateOperationsTests::requestId)
			.toList();
	}

	static void assertVersion4(String requestId) {
		UUID uuid = UUID.fromString(requestId);
		assertThat(uuid.version()).isEqualTo(4);
		assertThat(uuid.variant()).isEqualTo(2);
		assertThat(uuid).hasToString(requestId);
	}

}
