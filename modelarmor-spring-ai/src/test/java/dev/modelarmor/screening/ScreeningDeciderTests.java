package dev.modelarmor.screening;

import java.net.ConnectException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.modelarmor.ai.advisor.ModelArmorAdvisor;
import dev.modelarmor.client.DataItem;
import dev.modelarmor.client.FilterExecutionState;
import dev.modelarmor.client.FilterMatchState;
import dev.modelarmor.client.FilterResult;
import dev.modelarmor.client.InvocationResult;
import dev.modelarmor.client.ModelArmorApiException;
import dev.modelarmor.client.ModelArmorException;
import dev.modelarmor.client.ModelArmorInputTooLargeException;
import dev.modelarmor.client.PiAndJailbreakFilterResult;
import dev.modelarmor.client.SanitizationResult;
import dev.modelarmor.client.SanitizationResult.SanitizationMetadata;
import dev.modelarmor.client.SdpDeidentifyResult;
import dev.modelarmor.client.SdpFilterResult;
import dev.modelarmor.screening.ScreeningDecision.Blocked;
import dev.modelarmor.screening.ScreeningDecision.Deidentified;
import dev.modelarmor.screening.ScreeningDecision.NotScreened;
import dev.modelarmor.screening.ScreeningDecision.Rejected;
import dev.modelarmor.screening.media.MediaItem;
import dev.modelarmor.screening.media.UnscreenableMedia;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The screening policy on its own, without proxies or HTTP: every decision, what the observer hears and
 * the log lines.
 */
@ExtendWith(OutputCaptureExtension.class)
class ScreeningDeciderTests {

	private final List<String> heard = new ArrayList<>();

	private final ScreeningObserver observer = (phase, template, result, filters) -> this.heard
		.add(phase + " " + result.tag() + " " + String.join(",", filters));

	private ScreeningDecider screener(boolean failOpen) {
		return new ScreeningDecider(() -> failOpen, () -> this.observer);
	}

	@Test
	void theObserverHearsTheTemplateOfTheRequestOrOfTheUnscreenableMedia() {
		List<String> templates = new ArrayList<>();
		ScreeningDecider screener = new ScreeningDecider(() -> false, () -> (phase, template, result, filters) -> templates
			.add(template + " " + result.tag()));
		screener.screen(ScreeningRequest.prompt("Chat.ask()", "hello").withTemplate("strict"), () -> clean());
		screener.screen(ScreeningRequest.prompt("Chat.ask()", "hello"), () -> clean());
		screener.decide(ScreeningRequest.response("Chat.ask()", "hi", null).withTemplate("strict"), null,
				new ModelArmorException("down"));
		screener.unscreened("Chat.ask()", Phase.PROMPT, "media-template",
				new MediaItem.Unscreened("video/mp4", MediaItem.Reason.UNSUPPORTED_TYPE, 10), UnscreenableMedia.BLOCK);
		assertThat(templates).containsExactly("strict allowed", "null allowed", "strict failed_closed",
				"media-template rejected");
	}

	@Test
	void aCleanResultGoesOnUnchanged() {
		assertThat(screener(false).screen("Chat.ask()", Phase.PROMPT, MatchAction.BLOCK, true, () -> clean()))
			.isSameAs(ScreeningDecision.PASS);
		assertThat(this.heard).containsExactly("PROMPT allowed ");
	}

	@Test
	void aMatchBlocksWithTheResult() {
		SanitizationResult jailbreak = jailbreak();
		assertThat(screener(false).screen("Chat.ask()", Phase.RESPONSE, MatchAction.BLOCK, true, () -> jailbreak))
			.isEqualTo(new Blocked(Phase.RESPONSE, jailbreak));
		assertThat(new Blocked(Phase.RESPONSE, jailbreak).exception()).satisfies((ex) -> {
			assertThat(ex.phase()).isEqualTo(Phase.RESPONSE);
			assertThat(ex.result()).isSameAs(jailbreak);
			assertThat(ex.matchedFilters()).containsExactly("pi_and_jailbreak");
		});
		assertThat(this.heard).containsExactly("RESPONSE blocked pi_and_jailbreak");
	}

	@Test
	void aMatchThatBlocksIsLoggedByFilterWithTheMatchAction(CapturedOutput output) {
		screener(false).screen("Chat.ask(String)", Phase.PROMPT, MatchAction.DEIDENTIFY, true, () -> jailbreak());
		assertThat(lines(output, "Model Armor matched, blocking")).containsExactly(
				"Model Armor matched, blocking the call (onMatch=DEIDENTIFY): method=\"Chat.ask(String)\" phase=PROMPT "
						+ "filters=[pi_and_jailbreak]");
	}

	@Test
	void deidentifyGoesOnWithTheTextOnlyWhenSdpAloneMatchedAndTheCallerCanUseIt() {
		assertThat(screener(false).screen("c", Phase.PROMPT, MatchAction.DEIDENTIFY, true, () -> sdpOnly("[EMAIL]")))
			.isEqualTo(new Deidentified("[EMAIL]"));
		assertThat(screener(false).screen("c", Phase.PROMPT, MatchAction.DEIDENTIFY, false, () -> sdpOnly("[EMAIL]")))
			.isInstanceOfSatisfying(Blocked.class, (blocked) -> assertThat(blocked.result().matchedFilters())
				.containsExactly("sdp"));
		assertThat(screener(false).screen("c", Phase.PROMPT, MatchAction.DEIDENTIFY, true, () -> jailbreak()))
			.isInstanceOf(Blocked.class);
		assertThat(screener(false).screen("c", Phase.PROMPT, MatchAction.DEIDENTIFY, true, () -> sdpWithoutText()))
			.isInstanceOf(Blocked.class);
		assertThat(screener(false).screen("c", Phase.PROMPT, MatchAction.BLOCK, true, () -> sdpOnly("[EMAIL]")))
			.isInstanceOf(Blocked.class);
		assertThat(this.heard).containsExactly("PROMPT deidentified sdp", "PROMPT blocked sdp",
				"PROMPT blocked pi_and_jailbreak", "PROMPT blocked sdp", "PROMPT blocked sdp");
	}

	@Test
	void logOnlyGoesOnUnchanged() {
		assertThat(screener(false).screen("c", Phase.PROMPT, MatchAction.LOG_ONLY, true, () -> jailbreak()))
			.isSameAs(ScreeningDecision.PASS);
		assertThat(screener(false).screen("c", Phase.PROMPT, MatchAction.LOG_ONLY, true, () -> sdpOnly("[EMAIL]")))
			.isSameAs(ScreeningDecision.PASS);
		assertThat(this.heard).containsExactly("PROMPT logged pi_and_jailbreak", "PROMPT logged sdp");
	}

	@ParameterizedTest
	@EnumSource(value = InvocationResult.class, names = { "PARTIAL", "FAILURE", "INVOCATION_RESULT_UNSPECIFIED" })
	void anIncompleteScreeningBlocksUnlessFailOpen(InvocationResult invocation) {
		assertThat(screener(false).screen("c", Phase.PROMPT, MatchAction.BLOCK, true, () -> incomplete(invocation, false)))
			.isEqualTo(new NotScreened(Phase.PROMPT, "filterMatchState NO_MATCH_FOUND, invocationResult " + invocation, 0,
					"200", null));
		assertThat(screener(true).screen("c", Phase.PROMPT, MatchAction.BLOCK, true, () -> incomplete(invocation, false)))
			.isSameAs(ScreeningDecision.PASS);
		assertThat(this.heard).containsExactly("PROMPT failed_closed ", "PROMPT failed_open ");
	}

	@ParameterizedTest
	@EnumSource(value = FilterMatchState.class, names = { "FILTER_MATCH_STATE_UNSPECIFIED", "UNRECOGNIZED" })
	void anAnswerThatNeverSaidNoMatchIsNotAPass(FilterMatchState state) {
		SanitizationResult noVerdict = new SanitizationResult(state, InvocationResult.SUCCESS, Map.of(), null);
		assertThat(screener(false).screen("c", Phase.PROMPT, MatchAction.BLOCK, true, () -> noVerdict))
			.isInstanceOfSatisfying(NotScreened.class, (notScreened) -> assertThat(notScreened.exception())
				.hasMessageContaining("(filterMatchState " + state + ", invocationResult SUCCESS); the call is blocked")
				.satisfies((ex) -> assertThat(ex.attempts()).isZero()));
		assertThat(screener(true).screen("c", Phase.RESPONSE, MatchAction.BLOCK, true, () -> noVerdict))
			.isSameAs(ScreeningDecision.PASS);
		assertThat(this.heard).containsExactly("PROMPT failed_closed ", "RESPONSE failed_open ");
	}

	@Test
	void partialCountsAsScreenedWhenTheTemplateIgnoresPartialFailures() {
		assertThat(screener(false).screen("c", Phase.PROMPT, MatchAction.BLOCK, true,
				() -> incomplete(InvocationResult.PARTIAL, true)))
			.isSameAs(ScreeningDecision.PASS);
		assertThat(this.heard).containsExactly("PROMPT allowed ");
	}

	@Test
	void aFailedCallBlocksUnlessFailOpenAndKeepsTheCause() {
		ModelArmorException outage = new ModelArmorException("Model Armor could not be reached", 6, null);
		assertThat(screener(false).screen("c", Phase.RESPONSE, MatchAction.BLOCK, true, () -> {
			throw outage;
		})).isInstanceOfSatisfying(NotScreened.class, (notScreened) -> assertThat(notScreened.exception())
			.satisfies((ex) -> {
				assertThat(ex.getCause()).isSameAs(outage);
				assertThat(ex.attempts()).isEqualTo(6);
				assertThat(ex.phase()).isEqualTo(Phase.RESPONSE);
				assertThat(ex.getMessage()).contains("(ModelArmorException after 6 attempt(s))");
			}));
		assertThat(screener(true).screen("c", Phase.RESPONSE, MatchAction.BLOCK, true, () -> {
			throw outage;
		})).isSameAs(ScreeningDecision.PASS);
		assertThat(this.heard).containsExactly("RESPONSE failed_closed ", "RESPONSE failed_open ");
	}

	@ParameterizedTest
	@ValueSource(ints = { 401, 403, 404, 409, 429, 500, 503 })
	void anErrorAnswerOtherThan400Or413IsAnOutageThatFailOpenLetsThrough(int statusCode) {
		ModelArmorApiException answer = new ModelArmorApiException("Model Armor answered HTTP " + statusCode, statusCode,
				null, null, 2);
		assertThat(screener(false).screen("c", Phase.PROMPT, MatchAction.BLOCK, true, () -> {
			throw answer;
		})).isEqualTo(new NotScreened(Phase.PROMPT, "HTTP " + statusCode, 2, String.valueOf(statusCode), answer));
		assertThat(screener(true).screen("c", Phase.PROMPT, MatchAction.BLOCK, true, () -> {
			throw answer;
		})).isSameAs(ScreeningDecision.PASS);
		assertThat(this.heard).containsExactly("PROMPT failed_closed ", "PROMPT failed_open ");
	}

	@Test
	void theStatusOfAFailureWithoutAnAnswerIsIoErrorOrNone() {
		ModelArmorException unreachable = new ModelArmorException("Model Armor could not be reached", 6,
				new IllegalStateException("wrapped", new ConnectException("refused")));
		ModelArmorException garbled = new ModelArmorException("Model Armor answered HTTP 200 with a body that is not "
				+ "a sanitize response", 1, new IllegalStateException("not I/O"));
		assertThat(screener(false).screen("c", Phase.PROMPT, MatchAction.BLOCK, true, () -> {
			throw unreachable;
		})).isEqualTo(new NotScreened(Phase.PROMPT, "I/O ConnectException", 6, "io_error", unreachable));
		assertThat(screener(false).screen("c", Phase.PROMPT, MatchAction.BLOCK, true, () -> {
			throw garbled;
		})).isEqualTo(new NotScreened(Phase.PROMPT, "ModelArmorException", 1, "none", garbled));
	}

	@Test
	@Timeout(10)
	void aCauseChainThatLoopsEndsTheSearchForAnIoFailure() {
		RuntimeException first = new RuntimeException("first");
		RuntimeException second = new RuntimeException("second", first);
		first.initCause(second);
		ModelArmorException looping = new ModelArmorException("Model Armor could not be reached", 2, second);
		assertThat(screener(false).screen("c", Phase.PROMPT, MatchAction.BLOCK, true, () -> {
			throw looping;
		})).isEqualTo(new NotScreened(Phase.PROMPT, "ModelArmorException", 2, "none", looping));
	}

	@ParameterizedTest
	@ValueSource(booleans = { false, true })
	void textLargerThanModelArmorScreensIsRejectedWhateverFailOpenSays(boolean failOpen) {
		ModelArmorInputTooLargeException tooLarge = new ModelArmorInputTooLargeException("prompt", 5_000_000,
				DataItem.MAX_BYTES);
		assertThat(screener(failOpen).screen("c", Phase.PROMPT, MatchAction.LOG_ONLY, true, () -> {
			throw tooLarge;
		})).isEqualTo(new Rejected(Phase.PROMPT, "5000000 bytes, over the limit of 4194304", true, tooLarge));
		assertThat(this.heard).containsExactly("PROMPT rejected ");
	}

	@ParameterizedTest
	@CsvSource({ "false, 400, false", "true, 400, false", "false, 413, true", "true, 413, true" })
	void anAnswerOf400Or413IsRejectedInputWhateverFailOpenSays(boolean failOpen, int statusCode, boolean tooLarge) {
		ModelArmorApiException refused = new ModelArmorApiException("Model Armor answered HTTP " + statusCode,
				statusCode, (statusCode == 400) ? "INVALID_ARGUMENT" : null, null, 1);
		assertThat(screener(failOpen).screen("c", Phase.RESPONSE, MatchAction.BLOCK, true, () -> {
			throw refused;
		})).isEqualTo(new Rejected(Phase.RESPONSE, "HTTP " + statusCode, tooLarge, refused));
		assertThat(this.heard).containsExactly("RESPONSE rejected ");
	}

	@Test
	void aRejectionIsNeitherAnOutageNorAViolation() {
		ModelArmorApiException refused = new ModelArmorApiException("Model Armor answered HTTP 400", 400, null, null, 1);
		ModelArmorInputRejectedException ex = new Rejected(Phase.PROMPT, "HTTP 400", false, refused).exception();
		assertThat(ex).isNotInstanceOf(ModelArmorException.class)
			.hasCause(refused)
			.hasMessage("Model Armor refused to screen the prompt (HTTP 400); the call is blocked whatever "
					+ "modelarmor.screening.fail-open says. Correct the text sent");
		assertThat(ex.phase()).isEqualTo(Phase.PROMPT);
		assertThat(ex.reason()).isEqualTo("HTTP 400");
		assertThat(ex.tooLarge()).isFalse();
		assertThat(new Rejected(Phase.RESPONSE, "HTTP 413", true, refused).exception())
			.hasMessageEndingWith("Send shorter text")
			.satisfies((tooLarge) -> assertThat(tooLarge.tooLarge()).isTrue());
		assertThat(new Blocked(Phase.PROMPT, jailbreak()).exception()).isNotInstanceOf(ModelArmorException.class);
	}

	@Test
	void eachRefusalButAMatchAndEachFailOpenLogsOneWarnLineWithoutContent(CapturedOutput output) {
		ModelArmorApiException forbidden = new ModelArmorApiException("Model Armor answered HTTP 403 PERMISSION_DENIED",
				403, "PERMISSION_DENIED", null, 1);
		ModelArmorApiException refused = new ModelArmorApiException("Model Armor answered HTTP 413", 413, null, null, 1);
		screener(false).screen("ChatService.chat(String)", Phase.PROMPT, MatchAction.BLOCK, true, () -> {
			throw forbidden;
		});
		screener(true).screen("ChatService.chat(String)", Phase.RESPONSE, MatchAction.BLOCK, true,
				() -> incomplete(InvocationResult.PARTIAL, false));
		screener(true).screen("ModelArmorAdvisor.adviseCall", Phase.PROMPT, MatchAction.BLOCK, true, () -> {
			throw refused;
		});
		screener(false).screen("ModelArmorAdvisor.adviseCall", Phase.PROMPT, MatchAction.BLOCK, true, () -> {
			throw new ModelArmorInputTooLargeException("prompt", 4_194_305, DataItem.MAX_BYTES);
		});
		assertThat(lines(output, " WARN ")).containsExactly(
				"Model Armor could not screen a call, blocking it (fail-closed): method=\"ChatService.chat(String)\" "
						+ "phase=PROMPT outcome=not_screened status=403 attempts=1 reason=\"HTTP 403\"",
				"Model Armor could not screen a call, letting it through (fail-open): method=\"ChatService.chat(String)\" "
						+ "phase=RESPONSE outcome=not_screened status=200 attempts=0 "
						+ "reason=\"filterMatchState NO_MATCH_FOUND, invocationResult PARTIAL\"",
				"Model Armor refused the input, blocking the call in every mode: "
						+ "method=\"ModelArmorAdvisor.adviseCall\" phase=PROMPT outcome=input_rejected status=413 "
						+ "attempts=1 reason=\"HTTP 413\"",
				"Model Armor refused the input, blocking the call in every mode: "
						+ "method=\"ModelArmorAdvisor.adviseCall\" phase=PROMPT outcome=input_rejected status=none "
						+ "attempts=0 reason=\"4194305 bytes, over the limit of 4194304\"");
	}

	@Test
	void aPassLogsNoWarnLine(CapturedOutput output) {
		screener(false).screen("c", Phase.PROMPT, MatchAction.BLOCK, true, () -> clean());
		screener(false).screen("c", Phase.PROMPT, MatchAction.LOG_ONLY, true, () -> jailbreak());
		assertThat(lines(output, " WARN ")).isEmpty();
	}

	/** The messages of the captured lines that contain a marker, without their timestamp and logger. */
	private static List<String> lines(CapturedOutput output, String marker) {
		return output.getAll()
			.lines()
			.filter((line) -> line.contains(marker))
			.map((line) -> line.substring(line.indexOf("Model Armor ")))
			.toList();
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

	private static SanitizationResult sdpWithoutText() {
		SdpDeidentifyResult deidentify = new SdpDeidentifyResult(FilterExecutionState.EXECUTION_SUCCESS, null,
				FilterMatchState.MATCH_FOUND, null, 0, List.of("EMAIL_ADDRESS"));
		FilterResult sdp = new FilterResult(null, new SdpFilterResult(null, deidentify), null, null, null, null);
		return new SanitizationResult(FilterMatchState.MATCH_FOUND, InvocationResult.SUCCESS, Map.of("sdp", sdp), null);
	}

	private static SanitizationResult sdpOnly(String deidentified) {
		SdpDeidentifyResult deidentify = new SdpDeidentifyResult(FilterExecutionState.EXECUTION_SUCCESS, null,
				FilterMatchState.MATCH_FOUND, DataItem.text(deidentified), 0, List.of("EMAIL_ADDRESS"));
		FilterResult sdp = new FilterResult(null, new SdpFilterResult(null, deidentify), null, null, null, null);
		return new SanitizationResult(FilterMatchState.MATCH_FOUND, InvocationResult.SUCCESS, Map.of("sdp", sdp), null);
	}

}
