package dev.modelarmor.client;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.stream.Stream;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import dev.modelarmor.client.admin.FloorSetting;
import dev.modelarmor.client.admin.Template;
import dev.modelarmor.client.internal.ModelArmorJson;
import dev.modelarmor.client.internal.transport.DeadlineBoundedRequestFactory;
import dev.modelarmor.client.internal.transport.ModelArmorRestClients;
import dev.modelarmor.retry.ModelArmorRetryTemplates;
import dev.modelarmor.retry.RetrySettings;
import dev.modelarmor.retry.VirtualTime;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.retry.support.RetryTemplate;
import org.springframework.web.client.RestClient;
import org.springframework.web.util.DefaultUriBuilderFactory;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Ids cannot move a request: every id that goes into a URL path (project, location, template,
 * floor-setting parent) is refused before any request when it is empty, {@code .} or {@code ..} (also
 * percent-encoded), and otherwise sent as exactly one percent-encoded path segment, for sanitize and
 * management calls alike. WireMock reports the raw path it received.
 */
class HostileIdTests {

	/** Ids that must arrive as one segment: each would otherwise add a segment, a query, a fragment or a verb. */
	static final List<String> HOSTILE = List.of("a/b", "a/../b", "a?x=1", "a#frag", "t:sanitizeModelResponse", "a%2Fb",
			"%", "%zz", "a b", "a+b", "a;b=c", "a@b", "a&b=c", "~a_b-c.d", "...", "..a", "a..", ".a", "Zürich", "a\nb",
			"\\..\\", "%2e%2e%2f", "{template}");

	/** Ids that would make the server see another path: the current or the parent segment. */
	static final List<String> DOT_SEGMENTS = List.of(".", "..", "%2e", "%2E", "%2e%2E", ".%2e", "%2E.", "%252e%252e",
			"%25252E.");

	static final String ANSWER = """
			{"sanitizationResult": {"filterMatchState": "NO_MATCH_FOUND", "invocationResult": "SUCCESS"},
			 "name": "projects/p/locations/l/templates/t"}""";

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	VirtualTime time;

	@BeforeEach
	void answerEverything() {
		this.time = new VirtualTime();
		modelArmor.stubFor(any(anyUrl()).willReturn(
				aResponse().withStatus(200).withHeader("Content-Type", "application/json").withBody(ANSWER)));
	}

	/** An operation with a hostile id in one place, and the raw path (and query start) it must arrive at. */
	record Operation(String name, BiConsumer<HostileIdTests, String> call, Function<String, String> rawPath) {

		@Override
		public String toString() {
			return this.name;
		}

	}

	static Stream<Operation> operations() {
		return Stream.of(
				new Operation("sanitizeUserPrompt, withTemplate", (test, id) -> test.template().withTemplate(id).sanitizeUserPrompt("hi"),
						(id) -> "/v1/projects/p/locations/l/templates/" + segment(id) + ":sanitizeUserPrompt"),
				new Operation("sanitizeModelResponse, template id", (test, id) -> test.template("p", "l", id).sanitizeModelResponse("hi"),
						(id) -> "/v1/projects/p/locations/l/templates/" + segment(id) + ":sanitizeModelResponse"),
				new Operation("sanitizeUserPrompt, project id", (test, id) -> test.template(id, "l", "t").sanitizeUserPrompt("hi"),
						(id) -> "/v1/projects/" + segment(id) + "/locations/l/templates/t:sanitizeUserPrompt"),
				new Operation("sanitizeUserPrompt, location", (test, id) -> test.template("p", id, "t").sanitizeUserPrompt("hi"),
						(id) -> "/v1/projects/p/locations/" + segment(id) + "/templates/t:sanitizeUserPrompt"),
				new Operation("templates.get", (test, id) -> test.template().templates().get(id),
						(id) -> "/v1/projects/p/locations/l/templates/" + segment(id)),
				new Operation("templates.update",
						(test, id) -> test.template().templates().update(id, Template.of(TemplateOperationsTests.filters()), List.of()),
						(id) -> "/v1/projects/p/locations/l/templates/" + segment(id) + "?requestId="),
				new Operation("templates.delete", (test, id) -> test.template().templates().delete(id),
						(id) -> "/v1/projects/p/locations/l/templates/" + segment(id) + "?requestId="),
				new Operation("templates.list, project id", (test, id) -> test.template(id, "l", "t").templates().list(),
						(id) -> "/v1/projects/" + segment(id) + "/locations/l/templates"),
				new Operation("templates.create, location",
						(test, id) -> test.template("p", id, "t").templates().create("n", Template.of(TemplateOperationsTests.filters())),
						(id) -> "/v1/projects/p/locations/" + segment(id) + "/templates?templateId=n&requestId="),
				new Operation("floor_settings.get, project", (test, id) -> test.template().floorSettings().get(FloorSettingName.project(id)),
						(id) -> "/v1/projects/" + segment(id) + "/locations/global/floorSetting"),
				new Operation("floor_settings.get, folder", (test, id) -> test.template().floorSettings().get(FloorSettingName.folder(id)),
						(id) -> "/v1/folders/" + segment(id) + "/locations/global/floorSetting"),
				new Operation("floor_settings.update, organization and location",
						(test, id) -> test.template().floorSettings().update(FloorSettingName.organization(id).in(id), emptyFloorSetting(), List.of()),
						(id) -> "/v1/organizations/" + segment(id) + "/locations/" + segment(id) + "/floorSetting"));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("operations")
	void everyIdArrivesAsExactlyOnePathSegment(Operation operation) {
		for (String id : HOSTILE) {
			modelArmor.resetRequests();

			operation.call().accept(this, id);

			String rawPath = operation.rawPath().apply(id);
			List<ServeEvent> events = modelArmor.getAllServeEvents();
			assertThat(events).as("[%s]", id).hasSize(1);
			String received = events.get(0).getRequest().getUrl();
			if (rawPath.endsWith("=")) {
				assertThat(received).as("[%s]", id).startsWith(rawPath).matches(".*requestId=[0-9a-f-]{36}$");
			}
			else {
				assertThat(received).as("[%s]", id).isEqualTo(rawPath);
			}
		}
	}

	@ParameterizedTest
	@EnumSource(DefaultUriBuilderFactory.EncodingMode.class)
	void idsAreEncodedByTheStarterWhateverEncodingTheApplicationsRestClientUses(
			DefaultUriBuilderFactory.EncodingMode mode) {
		ModelArmorEndpoint endpoint = ModelArmorEndpoint.of(modelArmor.baseUrl());
		DefaultUriBuilderFactory factory = new DefaultUriBuilderFactory(modelArmor.baseUrl());
		factory.setEncodingMode(mode);
		RestClient lenient = ModelArmorRestClients.create(RestClient.builder().uriBuilderFactory(factory), endpoint,
				new DeadlineBoundedRequestFactory(HttpTimeouts.DEFAULTS), null, null);
		ModelArmorTemplate template = new ModelArmorTemplate(lenient,
				ModelArmorRetryTemplates.retrying(RetrySettings.DEFAULTS, this.time.runtime(new SplittableRandom(5))),
				endpoint, "p", "l", "a/b?c#d");

		template.sanitizeUserPrompt("hi");
		template.templates().get("a/b?c#d");
		template.templates().list();
		template.floorSettings().get(FloorSettingName.folder("a/b?c#d"));

		assertThat(modelArmor.getAllServeEvents()).extracting((event) -> event.getRequest().getUrl())
			.containsExactlyInAnyOrder("/v1/projects/p/locations/l/templates/a%2Fb%3Fc%23d:sanitizeUserPrompt",
					"/v1/projects/p/locations/l/templates/a%2Fb%3Fc%23d", "/v1/projects/p/locations/l/templates",
					"/v1/folders/a%2Fb%3Fc%23d/locations/global/floorSetting");
	}

	@Test
	void aTemplateIdIsEncodedAsOneQueryValueWhenCreating() {
		template("p", "l", "t").templates().create("a/../b?x=1#f", Template.of(TemplateOperationsTests.filters()));

		String received = modelArmor.getAllServeEvents().get(0).getRequest().getUrl();
		assertThat(received).startsWith("/v1/projects/p/locations/l/templates?templateId=a%2F..%2Fb%3Fx%3D1%23f&requestId=");
	}

	static Stream<Arguments> refusals() {
		return Stream.of(
				Arguments.of("withTemplate", "templateId", (BiConsumer<HostileIdTests, String>) (test, id) -> test.template().withTemplate(id)),
				Arguments.of("builder", "templateId", (BiConsumer<HostileIdTests, String>) (test, id) -> test.template("p", "l", id)),
				Arguments.of("builder", "projectId", (BiConsumer<HostileIdTests, String>) (test, id) -> test.template(id, "l", "t")),
				Arguments.of("builder", "location", (BiConsumer<HostileIdTests, String>) (test, id) -> test.template("p", id, "t")),
				Arguments.of("constructor", "projectId", (BiConsumer<HostileIdTests, String>) (test, id) -> new ModelArmorTemplate(
						RestClient.create(), new RetryTemplate(), ModelArmorEndpoint.of(modelArmor.baseUrl()), id, "l", "t")),
				Arguments.of("templates.get", "templateId", (BiConsumer<HostileIdTests, String>) (test, id) -> test.template().templates().get(id)),
				Arguments.of("templates.create", "templateId", (BiConsumer<HostileIdTests, String>) (test, id) -> test.template()
					.templates()
					.create(id, Template.of(TemplateOperationsTests.filters()))),
				Arguments.of("templates.update", "templateId", (BiConsumer<HostileIdTests, String>) (test, id) -> test.template()
					.templates()
					.update(id, Template.of(TemplateOperationsTests.filters()), List.of())),
				Arguments.of("templates.delete", "templateId", (BiConsumer<HostileIdTests, String>) (test, id) -> test.template().templates().delete(id)),
				Arguments.of("FloorSettingName.project", "parentId", (BiConsumer<HostileIdTests, String>) (test, id) -> FloorSettingName.project(id)),
				Arguments.of("FloorSettingName.folder", "parentId", (BiConsumer<HostileIdTests, String>) (test, id) -> FloorSettingName.folder(id)),
				Arguments.of("FloorSettingName.organization", "parentId",
						(BiConsumer<HostileIdTests, String>) (test, id) -> FloorSettingName.organization(id)),
				Arguments.of("FloorSettingName.in", "location", (BiConsumer<HostileIdTests, String>) (test, id) -> FloorSettingName.project("p").in(id)));
	}

	@ParameterizedTest(name = "{0}: {1}")
	@MethodSource("refusals")
	void aDotSegmentIsRefusedBeforeAnyRequestNamingTheArgument(String where, String argument,
			BiConsumer<HostileIdTests, String> call) {
		for (String id : DOT_SEGMENTS) {
			String dots = decoded(id).equals(".") ? "." : "..";
			assertThatIllegalArgumentException().as("[%s]", id)
				.isThrownBy(() -> call.accept(this, id))
				.withMessageStartingWith(argument + " must not be '" + dots + "'");
		}
		modelArmor.verify(0, anyRequestedFor(anyUrl()));
	}

	@ParameterizedTest
	@NullAndEmptySource
	@ValueSource(strings = { " ", "\t", "\n" })
	void aBlankIdIsRefusedAtConstructionNamingTheArgument(String id) {
		assertThatIllegalArgumentException().isThrownBy(() -> template(id, "l", "t")).withMessageContaining("projectId");
		assertThatIllegalArgumentException().isThrownBy(() -> template("p", id, "t")).withMessageContaining("location");
		assertThatIllegalArgumentException().isThrownBy(() -> template("p", "l", "t").withTemplate(id))
			.withMessageContaining("templateId");
		assertThatIllegalArgumentException().isThrownBy(() -> FloorSettingName.folder(id)).withMessageContaining("parentId");
		if (id != null) {
			assertThatIllegalArgumentException().isThrownBy(() -> template("p", "l", id)).withMessageContaining("templateId");
			assertThatIllegalArgumentException()
				.isThrownBy(() -> new ModelArmorTemplate(RestClient.create(), new RetryTemplate(),
						ModelArmorEndpoint.of(modelArmor.baseUrl()), "p", "l", id))
				.withMessageContaining("templateId");
		}
		modelArmor.verify(0, anyRequestedFor(anyUrl()));
	}

	@Test
	void aRandomIdAlwaysArrivesAsTheSegmentItEncodesTo() {
		SplittableRandom random = new SplittableRandom(99);
		String alphabet = "aZ09-._~/?#[]@!$&'()*+,;=:% \t\"<>\\^`{|}\u00e9\u4e2d\ud83d\ude00";
		ModelArmorTemplate template = template("p", "l", "t");
		for (int i = 0; i < 200; i++) {
			StringBuilder id = new StringBuilder();
			for (int j = 1 + random.nextInt(12); j > 0; j--) {
				id.appendCodePoint(alphabet.codePointAt(alphabet.offsetByCodePoints(0,
						random.nextInt(alphabet.codePointCount(0, alphabet.length())))));
			}
			if (isDotSegment(id.toString())) {
				continue;
			}
			modelArmor.resetRequests();

			template.templates().get(id.toString());

			assertThat(modelArmor.getAllServeEvents()).singleElement()
				.satisfies((event) -> assertThat(event.getRequest().getUrl()).as("[%s]", id)
					.isEqualTo("/v1/projects/p/locations/l/templates/" + segment(id.toString())));
		}
	}

	/** A template on one shared HTTP client: hundreds of cases, one connection pool. */
	ModelArmorTemplate template(String projectId, String location, String templateId) {
		ModelArmorEndpoint endpoint = ModelArmorEndpoint.of(modelArmor.baseUrl());
		if (restClient == null || !restClient.endpoint().equals(endpoint)) {
			restClient = new SharedClient(endpoint, ModelArmorRestClients.create(RestClient.builder(), endpoint,
					new DeadlineBoundedRequestFactory(HttpTimeouts.DEFAULTS), null, null));
		}
		return new ModelArmorTemplate(restClient.client(),
				ModelArmorRetryTemplates.retrying(RetrySettings.DEFAULTS, this.time.runtime(new SplittableRandom(5))),
				endpoint, projectId, location, templateId);
	}

	private static SharedClient restClient;

	private record SharedClient(ModelArmorEndpoint endpoint, RestClient client) {
	}

	ModelArmorTemplate template() {
		return template("p", "l", "t");
	}

	static FloorSetting emptyFloorSetting() {
		return ModelArmorJson.mapper().readValue("{}", FloorSetting.class);
	}

	/** RFC 3986 percent-encoding of everything but the unreserved characters, written out here by hand. */
	static String segment(String id) {
		ByteArrayOutputStream encoded = new ByteArrayOutputStream();
		for (byte b : id.getBytes(StandardCharsets.UTF_8)) {
			char c = (char) (b & 0xff);
			if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || "-._~".indexOf(c) >= 0) {
				encoded.write(c);
			}
			else {
				encoded.writeBytes(String.format("%%%02X", b & 0xff).getBytes(StandardCharsets.US_ASCII));
			}
		}
		return encoded.toString(StandardCharsets.US_ASCII);
	}

	private static boolean isDotSegment(String id) {
		String decoded = decoded(id);
		return decoded.isBlank() || decoded.equals(".") || decoded.equals("..");
	}

	private static String decoded(String id) {
		String decoded = id;
		for (int i = 0; i < 5; i++) {
			decoded = decoded.replace("%25", "%").replaceAll("(?i)%2e", ".");
		}
		return decoded;
	}

	/** The URI class agrees: the path has exactly the segments it should. */
	@Test
	void theEncodedSegmentsParseBackToTheIds() {
		for (String id : HOSTILE) {
			URI uri = URI.create("http://localhost/v1/projects/p/locations/l/templates/" + segment(id));
			assertThat(uri.getRawPath().split("/")).hasSize(8);
			assertThat(uri.getRawQuery()).isNull();
			assertThat(uri.getRawFragment()).isNull();
		}
	}

}
