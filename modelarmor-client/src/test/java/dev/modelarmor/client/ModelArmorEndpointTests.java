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
			"http://127.10.0.3, http://127.10.0.3", "http://[::1]:8089, http://[::1]:8089",
			"http://LocalHost:8089, http://LocalHost:8089", "http://127.255.255.255, http://127.255.255.255",
			"http://[0:0:0:0:0:0:0:1], http://[0:0:0:0:0:0:0:1]", "http://[::ffff:127.0.0.1], http://[::ffff:127.0.0.1]" })
	void acceptsHttpsAnywhereAndHttpOnLoopback(String url, String expected) {
		assertThat(ModelArmorEndpoint.of(url).uri()).hasToString(expected);
	}

	@ParameterizedTest
	@ValueSource(strings = { "http://modelarmor.googleapis.com", "http://10.0.0.1:8080", "http://192.168.1.4",
			"http://localhost.example.com", "http://[::2]", "http://cafe", "http://dead.beef",
			"http://2130706433", "http://0177.0.0.1", "http://127.0.0.1.nip.io",
			"http://localhost.", "http://ip6-localhost", "http://localhost.localdomain", "http://[::ffff:10.0.0.1]",
			"http://0.0.0.0", "http://[::]" })
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

	@ParameterizedTest
	@ValueSource(strings = { "http://127.1", "http://0x7f.0.0.1", "http://127.0.0.256", "http://127.0.0.1:8089:1" })
	void rejectsLoopbackLookalikesThatAreNoHostForJava(String url) {
		assertThatIllegalArgumentException().isThrownBy(() -> ModelArmorEndpoint.of(url));
	}

	@ParameterizedTest
	@ValueSource(strings = { "https://user:secret@modelarmor.googleapis.com", "http://localhost@10.0.0.1",
			"https://token@proxy.example" })
	void rejectsUserInformationBeforeTheHost(String url) {
		assertThatIllegalArgumentException().isThrownBy(() -> ModelArmorEndpoint.of(url));
	}

	@ParameterizedTest
	@ValueSource(strings = { "evil.example/x#", "us-central1.evil.example", "x@evil", "eu?", "US", "-eu", "a b", "",
			"a.b", "europe-west4/..", "us\n" })
	void aLocationThatIsNotARegionCannotNameAnotherHost(String location) {
		assertThatIllegalArgumentException().isThrownBy(() -> ModelArmorEndpoint.regional(location))
			.withMessageStartingWith("location must be a region");
	}

	@ParameterizedTest
	@ValueSource(strings = { "us", "eu", "us-central1", "europe-west4", "asia-southeast1", "me-central2" })
	void aRegionNamesItsRegionalHost(String location) {
		assertThat(ModelArmorEndpoint.regional(location).uri().getHost())
			.isEqualTo("modelarmor." + location + ".rep.googleapis.com");
	}

	@Test
	void anEndpointReadsAsItsUrl() {
		assertThat(ModelArmorEndpoint.of("http://localhost:8089/")).hasToString("http://localhost:8089");
		assertThat(ModelArmorEndpoint.regional("eu")).hasToString("https://modelarmor.eu.rep.googleapis.com");
	}

}
