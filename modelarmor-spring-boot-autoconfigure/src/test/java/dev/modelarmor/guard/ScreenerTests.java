package dev.modelarmor.guard;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.modelarmor.client.DataItem;
import dev.modelarmor.client.FilterExecutionState;
import dev.modelarmor.client.FilterMatchState;
import dev.modelarmor.client.FilterResult;
import dev.modelarmor.client.InvocationResult;
import dev.modelarmor.client.ModelArmorException;
import dev.modelarmor.client.PiAndJailbreakFilterResult;
import dev.modelarmor.client.SanitizationResult;
import dev.modelarmor.client.SanitizationResult.SanitizationMetadata;
import dev.modelarmor.client.SdpDeidentifyResult;
import dev.modelarmor.client.SdpFilterResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The screening policy on its own, without proxies or HTTP: every decision and what the observer hears.
 */
class ScreenerTests {

	private final List<String> heard = new ArrayList<>();

	private final ScreeningObserver observer = (phase, result, filters) -> this.heard
		.add(phase + " " + result.tag() + " " + String.join(",", filters));

	private Screener screener(boolean failOpen) {
		return new Screener(() -> failOpen, () -> this.observer);
	}

	@Test
	void aCleanResultGoesOnUnchanged() {
		assertThat(screener(false).screen("Chat.ask()", Phase.PROMPT, MatchAction.BLOCK, true, () -> clean())).isNull();
		assertThat(this.heard).containsExactly("PROMPT allowed ");
	}

	@Test
	void aMatchBlocksWithTheResult() {
		assertThatExceptionOfType(ModelArmorViolationException.class)
			.isThrownBy(() -> screener(false).screen("Chat.ask()", Phase.RESPONSE, MatchAction.BLOCK, true,
					() -> jailbreak()))
			.satisfies((ex) -> assertThat(ex.matchedFilters()).containsExactly("pi_and_jailbreak"));
		assertThat(this.heard).containsExactly("RESPONSE blocked pi_and_jailbreak");
	}

	@Test
	void deidentifyGoesOnWithTheTextOnlyWhenSdpAloneMatchedAndTheCallerCanUseIt() {
		assertThat(screener(false).screen("c", Phase.PROMPT, MatchAction.DEIDENTIFY, true, () -> sdpOnly("[EMAIL]")))
			.isEqualTo("[EMAIL]");
		assertThatExceptionOfType(ModelArmorViolationException.class).isThrownBy(
				() -> screener(false).screen("c", Phase.PROMPT, MatchAction.DEIDENTIFY, false, () -> sdpOnly("[EMAIL]")));
		assertThatExceptionOfType(ModelArmorViolationException.class)
			.isThrownBy(() -> screener(false).screen("c", Phase.PROMPT, MatchAction.DEIDENTIFY, true, () -> jailbreak()));
		assertThat(this.heard).containsExactly("PROMPT deidentified sdp", "PROMPT blocked sdp",
				"PROMPT blocked pi_and_jailbreak");
	}

	@Test
	void logOnlyGoesOnUnchanged() {
		assertThat(screener(false).screen("c", Phase.PROMPT, MatchAction.LOG_ONLY, true, () -> jailbreak())).isNull();
		assertThat(this.heard).containsExactly("PROMPT logged pi_and_jailbreak");
	}

	@ParameterizedTest
	@EnumSource(value = InvocationResult.class, names = { "PARTIAL", "FAILURE", "INVOCATION_RESULT_UNSPECIFIED" })
	void anIncompleteScreeningBlocksUnlessFailOpen(InvocationResult invocation) {
		assertThatExceptionOfType(ModelArmorNotScreenedException.class)
			.isThrownBy(() -> screener(false).screen("c", Phase.PROMPT, MatchAction.BLOCK, true,
					() -> incomplete(invocation, false)))
			.withMessageContaining("invocationResult " + invocation);
		assertThat(screener(true).screen("c", Phase.PROMPT, MatchAction.BLOCK, true, () -> incomplete(invocation, false)))
			.isNull();
		assertThat(this.heard).containsExactly("PROMPT failed_closed ", "PROMPT failed_open ");
	}

	@ParameterizedTest
	@EnumSource(value = FilterMatchState.class, names = { "FILTER_MATCH_STATE_UNSPECIFIED", "UNRECOGNIZED" })
	void anAnswerThatNeverSaidNoMatchIsNotAPass(FilterMatchState state) {
		SanitizationResult noVerdict = new SanitizationResult(state, InvocationResult.SUCCESS, Map.of(), null);
		assertThatExceptionOfType(ModelArmorNotScreenedException.class)
			.isThrownBy(() -> screener(false).screen("c", Phase.PROMPT, MatchAction.BLOCK, true, () -> noVerdict))
			.withMessageContaining("filterMatchState " + state);
		assertThat(screener(true).screen("c", Phase.RESPONSE, MatchAction.BLOCK, true, () -> noVerdict)).isNull();
		assertThat(this.heard).containsExactly("PROMPT failed_closed ", "RESPONSE failed_open ");
	}

	@Test
	void partialCountsAsScreenedWhenTheTemplateIgnoresPartialFailures() {
		assertThat(screener(false).screen("c", Phase.PROMPT, MatchAction.BLOCK, true,
				() -> incomplete(InvocationResult.PARTIAL, true)))
			.isNull();
		assertThat(this.heard).containsExactly("PROMPT allowed ");
	}

	@Test
	void aFailedCallBlocksUnlessFailOpenAndKeepsTheCause() {
		ModelArmorException outage = new ModelArmorException("Model Armor could not be reached", 6, null);
		assertThatExceptionOfType(ModelArmorNotScreenedException.class)
			.isThrownBy(() -> screener(false).screen("c", Phase.RESPONSE, MatchAction.BLOCK, true, () -> {
				throw outage;
			}))
			.satisfies((ex) -> {
				assertThat(ex.getCause()).isSameAs(outage);
				assertThat(ex.attempts()).isEqualTo(6);
				assertThat(ex.phase()).isEqualTo(Phase.RESPONSE);
			});
		assertThat(screener(true).screen("c", Phase.RESPONSE, MatchAction.BLOCK, true, () -> {
			throw outage;
		})).isNull();
	}

	private static SanitizationResult clean() {
		return new SanitizationResult(FilterMatchState.NO_MATCH_FOUND, InvocationResult.SUCCESS, Map.of(), null);
	}

	private static SanitizationResult incomplete(InvocationResult invocation, boolean ignorePartial) {
		return new SanitizationResult(FilterMatchState.NO_MATCH_FOUND, invocation, Map.of(),
				new SanitizationMetadata(0, null, ignorePartial));
	}

	private static SanitizationResult jailbreak() {
		FilterResult pi = new FilterResult(null, null, new PiAndJailbreakFilterResult(FilterExecutionState.EXECUTION_SUCCESS,
				null, FilterMatchState.MATCH_FOUND, null), null, null, null);
		return new SanitizationResult(FilterMatchState.MATCH_FOUND, InvocationResult.SUCCESS, Map.of("pi_and_jailbreak", pi),
				null);
	}

	private static SanitizationResult sdpOnly(String deidentified) {
		SdpDeidentifyResult deidentify = new SdpDeidentifyResult(FilterExecutionState.EXECUTION_SUCCESS, null,
				FilterMatchState.MATCH_FOUND, DataItem.text(deidentified), 0, List.of("EMAIL_ADDRESS"));
		FilterResult sdp = new FilterResult(null, new SdpFilterResult(null, deidentify), null, null, null, null);
		return new SanitizationResult(FilterMatchState.MATCH_FOUND, InvocationResult.SUCCESS, Map.of("sdp", sdp), null);
	}

}
