package dev.modelarmor.client.internal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class PathIdsTests {

	@ParameterizedTest
	@ValueSource(strings = { "my-template", "a/b", "...", "..a", "%", "%2", "%zz", "%2f", "%2e%2e%2f", "100%", "%25", "%2525" })
	void anIdThatIsNotADotSegmentIsReturnedUnchanged(String id) {
		assertThat(PathIds.require("templateId", id)).isSameAs(id);
	}

	@Test
	void aPlainDotSegmentIsNamedAsItIs() {
		assertThatIllegalArgumentException().isThrownBy(() -> PathIds.require("templateId", ".."))
			.withMessage("templateId must not be '..': it would name another path than the one meant");
		assertThatIllegalArgumentException().isThrownBy(() -> PathIds.require("location", "."))
			.withMessage("location must not be '.': it would name another path than the one meant");
	}

	@Test
	void anEncodedDotSegmentIsNamedWithHowItWasGiven() {
		assertThatIllegalArgumentException().isThrownBy(() -> PathIds.require("projectId", "%2e%2E"))
			.withMessage("projectId must not be '..' (given percent-encoded as '%2e%2E'): it would name another path "
					+ "than the one meant");
	}

	@Test
	void eightRoundsOfEncodingAreDecodedAndANinthIsRefused() {
		String eightTimes = "%" + "25".repeat(7) + "2e";
		assertThatIllegalArgumentException().isThrownBy(() -> PathIds.require("parentId", eightTimes))
			.withMessageStartingWith("parentId must not be '.' (given percent-encoded as ");
		String nineTimes = "%" + "25".repeat(8) + "2e";
		assertThatIllegalArgumentException().isThrownBy(() -> PathIds.require("parentId", nineTimes))
			.withMessage("parentId must not be percent-encoded over and over");
		String nineTimesButNoDot = "%" + "25".repeat(8) + "2f";
		assertThat(PathIds.require("parentId", nineTimesButNoDot)).isSameAs(nineTimesButNoDot);
		String tenTimesButNoDot = "%" + "25".repeat(9) + "2f";
		assertThatIllegalArgumentException().isThrownBy(() -> PathIds.require("parentId", tenTimesButNoDot))
			.withMessage("parentId must not be percent-encoded over and over");
	}

	@Test
	void emptyAndBlankIdsAreRefusedNamingTheArgument() {
		for (String id : new String[] { null, "", " ", "\t\n" }) {
			assertThatIllegalArgumentException().isThrownBy(() -> PathIds.require("templateId", id))
				.withMessage("templateId must not be empty");
		}
	}

}
