package dev.modelarmor.client.internal;

import java.net.URI;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.http.HttpMethod;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class ApiCallTests {

	static final String PATH = "/v1/projects/{project}/locations/{location}/templates/{template}";

	@Test
	void everyPathVariableMustStandAsOneSegment() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> ApiCall.of("templates.get", HttpMethod.GET, PATH,
					Map.of("project", "p", "location", "l", "template", "%2E%2E")))
			.withMessageStartingWith("template must not be '..'");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> ApiCall.of("templates.get", HttpMethod.GET, PATH,
					Map.of("project", " ", "location", "l", "template", "t")))
			.withMessage("project must not be empty");
	}

	@Test
	void eachVariableIsEncodedAsOneSegmentAndEachQueryValueAsOneValue() {
		ApiCall call = ApiCall.of("templates.get", HttpMethod.GET, PATH,
				Map.of("project", "p", "location", "l", "template", "a/b?c#d:e%f"))
			.query("filter", "x&y=z");

		URI uri = call.at(URI.create("https://proxy.example/base")).resolvedAt(URI.create("https://proxy.example/base"))
			.resolvedUri();

		assertThat(uri).hasToString("https://proxy.example/base/v1/projects/p/locations/l/templates/a%2Fb%3Fc%23d%3Ae%25f"
				+ "?filter=x%26y%3Dz");
	}

	@Test
	void aResolvedCallTakesNoMoreQueryNorAnotherEndpoint() {
		ApiCall resolved = ApiCall.of("templates.get", HttpMethod.GET, PATH, Map.of("project", "p", "location", "l",
				"template", "t"))
			.resolvedAt(URI.create("https://modelarmor.example"));

		assertThatIllegalStateException().isThrownBy(() -> resolved.query("pageToken", "x"));
		assertThatIllegalStateException().isThrownBy(() -> resolved.at(URI.create("https://other.example")));
	}

}
