package dev.modelarmor.web;

import java.util.List;
import java.util.stream.Stream;

import dev.modelarmor.web.internal.TenantHeader;
import dev.modelarmor.web.internal.TenantHeader.Tenant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the tenant header's values name, whatever the servlet container or Netty hands over: each
 * occurrence of the header, some joined with commas by a proxy.
 */
class TenantHeaderTests {

	private static final Tenant NONE = new Tenant(null, false);

	private static final Tenant AMBIGUOUS = new Tenant(null, true);

	static Stream<Arguments> occurrences() {
		return Stream.of(Arguments.of(List.of(""), NONE), Arguments.of(List.of("   "), NONE),
				Arguments.of(List.of("\t"), NONE), Arguments.of(List.of(" ", ""), NONE), Arguments.of(List.of(","), NONE),
				Arguments.of(List.of(" , ,"), NONE), Arguments.of(List.of("acme"), new Tenant("acme", false)),
				Arguments.of(List.of(" acme "), new Tenant("acme", false)),
				Arguments.of(List.of("acme", "acme"), new Tenant("acme", false)),
				Arguments.of(List.of("acme, acme"), new Tenant("acme", false)),
				Arguments.of(List.of("acme,,acme"), new Tenant("acme", false)),
				Arguments.of(List.of("acme", "", " acme"), new Tenant("acme", false)),
				Arguments.of(List.of("", "acme"), new Tenant("acme", false)),
				Arguments.of(List.of("acme", "globex"), AMBIGUOUS), Arguments.of(List.of("acme, globex"), AMBIGUOUS),
				Arguments.of(List.of("acme,Acme"), AMBIGUOUS), Arguments.of(List.of("acme", "acme", "acme,globex"), AMBIGUOUS));
	}

	@ParameterizedTest(name = "{0} -> {1}")
	@MethodSource("occurrences")
	void readsEveryOccurrence(List<String> values, Tenant expected) {
		assertThat(TenantHeader.read(values)).isEqualTo(expected);
	}

	@Test
	void anAbsentHeaderNamesNoTenant() {
		assertThat(TenantHeader.read(null)).isEqualTo(NONE);
	}

}
