package dev.modelarmor.client;

import java.util.Map;

import dev.modelarmor.client.internal.ModelArmorJson;
import dev.modelarmor.client.internal.SanitizeResponse;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.modelarmor.client.SanitizationResult.SanitizationMetadata;
import dev.modelarmor.client.SanitizationResult.Verdict;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link SanitizationResult#verdict()}: only an answer that said {@code NO_MATCH_FOUND} with every filter
 * run is a pass; an answer that never said "no match" is not screened, and a match is a match whatever
 * else the answer says. Read from the JSON a server sends, absent fields and unknown values included.
 */
class SanitizationResultVerdictTests {

	@ParameterizedTest(name = "{0} / {1} / ignorePartial={2} -> {3}")
	@CsvSource(nullValues = "ABSENT", textBlock = """
			MATCH_FOUND,                     SUCCESS,                       false, MATCHED
			MATCH_FOUND,                     FAILURE,                       false, MATCHED
			MATCH_FOUND,                     ABSENT,                        false, MATCHED
			MATCH_FOUND,                     SOMETHING_NEW,                 false, MATCHED
			NO_MATCH_FOUND,                  SUCCESS,                       false, NO_MATCH
			NO_MATCH_FOUND,                  PARTIAL,                       true,  NO_MATCH
			NO_MATCH_FOUND,                  PARTIAL,                       false, NOT_SCREENED
			NO_MATCH_FOUND,                  FAILURE,                       true,  NOT_SCREENED
			NO_MATCH_FOUND,                  INVOCATION_RESULT_UNSPECIFIED, true,  NOT_SCREENED
			NO_MATCH_FOUND,                  ABSENT,                        false, NOT_SCREENED
			NO_MATCH_FOUND,                  SOMETHING_NEW,                 true,  NOT_SCREENED
			ABSENT,                          SUCCESS,                       false, NOT_SCREENED
			FILTER_MATCH_STATE_UNSPECIFIED,  SUCCESS,                       false, NOT_SCREENED
			SOMETHING_NEW,                   SUCCESS,                       true,  NOT_SCREENED
			ABSENT,                          ABSENT,                        false, NOT_SCREENED
			""")
	void decidesFromTheAnswerAsSent(String matchState, String invocationResult, boolean ignorePartial,
			Verdict expected) {
		StringBuilder json = new StringBuilder("{\"sanitizationResult\":{");
		if (matchState != null) {
			json.append("\"filterMatchState\":\"").append(matchState).append("\",");
		}
		if (invocationResult != null) {
			json.append("\"invocationResult\":\"").append(invocationResult).append("\",");
		}
		json.append("\"sanitizationMetadata\":{\"ignorePartialInvocationFailures\":").append(ignorePartial).append("}}}");
		SanitizationResult result = ModelArmorJson.readerFor(SanitizeResponse.class)
			.<SanitizeResponse>readValue(json.toString())
			.sanitizationResult();
		assertThat(result).isNotNull();
		assertThat(result.verdict()).isEqualTo(expected);
	}

	@ParameterizedTest
	@CsvSource({ "MATCH_FOUND, MATCHED", "NO_MATCH_FOUND, NO_MATCH", "UNRECOGNIZED, NOT_SCREENED",
			"FILTER_MATCH_STATE_UNSPECIFIED, NOT_SCREENED" })
	void matchFoundAloneDoesNotMeanPassing(FilterMatchState state, Verdict expected) {
		SanitizationResult result = new SanitizationResult(state, InvocationResult.SUCCESS, Map.of(),
				new SanitizationMetadata(0, null, false));
		assertThat(result.verdict()).isEqualTo(expected);
		assertThat(result.matchFound()).isEqualTo(state == FilterMatchState.MATCH_FOUND);
	}

}
