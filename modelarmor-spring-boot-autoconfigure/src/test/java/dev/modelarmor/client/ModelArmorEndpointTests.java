package dev.modelarmor.client;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class ModelArmorEndpointTests {

	@Test
	void regionalEndpointFollowsGooglesPattern() {
		assertThat(ModelArmorEndpoint.regional("us-central1").uri())
			.hasToString("https://modelarmor.us-central1.rep.googleapis.com");
		assertThat(ModelArmorEndpoint.regional("eu").uri()).hasToString("https://modelarmor.eu.rep.googleapis.com");
	}

	@ParameterizedTest
	@CsvSource({ "https://proxy.internal.example/modelarmor/, https://proxy.internal.example/modelarmor",
			"HTTPS://modelarmor.googleapis.com, HTTPS://modelarmor.googleapis.com",
			"http://localhost:8089, http://localhost:8089", "http://127.0.0.1:9/, http://127.0.0.1:9",
			"http://127.10.0.3, http://127.10.0.3", "http://[::1]:8089, http://[::1]:8089" })
	void acceptsHttpsAnywhereAndHttpOnLoopback(String url, String expected) {
		assertThat(ModelArmorEndpoint.of(url).uri()).hasToString(expected);
	}

	@ParameterizedTest
	@ValueSource(strings = { "http://modelarmor.googleapis.com", "http://10.0.0.1:8080", "http://192.168.1.4",
			"http://localhost.example.com", "http://[::2]" })
	void rejectsPlainHttpBeyondLoopback(String url) {
		assertThatIllegalArgumentException().isThrownBy(() -> ModelArmorEndpoint.of(url))
			.withMessageContaining("plain http");
	}

	@ParameterizedTest
	@ValueSource(strings = { "modelarmor.googleapis.com", "ftp://localhost", "file:///tmp/x", "https://", "not a url",
			"https://host/path?x=1", "https://host/#frag" })
	void rejectsWhatIsNotABaseUrl(String url) {
		assertThatIllegalArgumentException().isThrownBy(() -> ModelArmorEndpoint.of(url));
	}

}
