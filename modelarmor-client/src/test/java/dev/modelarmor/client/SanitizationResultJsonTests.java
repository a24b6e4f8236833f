package dev.modelarmor.client;

import java.util.List;

import dev.modelarmor.client.internal.ModelArmorJson;
import dev.modelarmor.client.internal.SanitizeResponse;
import org.junit.jupiter.api.Test;

import dev.modelarmor.client.MaliciousUriFilterResult.MaliciousUriMatchedItem;
import dev.modelarmor.client.RaiFilterResult.RaiFilterTypeResult;
import dev.modelarmor.client.SanitizationResult.SanitizationMetadata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for reading a {@link SanitizationResult} with {@link ModelArmorJson#mapper()}.
 */
class SanitizationResultJsonTests {

	private static final String SECRET = "SECRET-4711";

	// The sanitizeUserPrompt example of the reference notes (model-armor-api.md, section 2).
	private static final String USER_PROMPT_EXAMPLE = """
			{
			  "sanitizationResult": {
			    "filterMatchState": "MATCH_FOUND",
			    "invocationResult": "SUCCESS",
			    "filterResults": {
			      "csam": { "csamFilterFilterResult": { "executionState": "EXECUTION_SUCCESS", "matchState": "NO_MATCH_FOUND" } },
			      "malicious_uris": { "maliciousUriFilterResult": { "executionState": "EXECUTION_SUCCESS", "matchState": "NO_MATCH_FOUND" } },
			      "rai": { "raiFilterResult": {
			        "executionState": "EXECUTION_SUCCESS", "matchState": "NO_MATCH_FOUND",
			        "raiFilterTypeResults": {
			          "sexually_explicit": { "matchState": "NO_MATCH_FOUND" },
			          "hate_speech": { "matchState": "NO_MATCH_FOUND" },
			          "harassment": { "matchState": "NO_MATCH_FOUND" },
			          "dangerous": { "matchState": "NO_MATCH_FOUND" } } } },
			      "pi_and_jailbreak": { "piAndJailbreakFilterResult": {
			        "executionState": "EXECUTION_SUCCESS", "matchState": "MATCH_FOUND", "confidenceLevel": "HIGH" } },
			      "sdp": { "sdpFilterResult": { "inspectResult": {
			        "executionState": "EXECUTION_SUCCESS", "matchState": "NO_MATCH_FOUND" } } }
			    },
			    "sanitizationMetadata": {}
			  }
			}
			""";

	// The sanitizeModelResponse example of the reference notes.
	private static final String MODEL_RESPONSE_EXAMPLE = """
			{
			  "sanitizationResult": {
			    "filterMatchState": "MATCH_FOUND",
			    "invocationResult": "SUCCESS",
			    "filterResults": {
			      "sdp": { "sdpFilterResult": { "deidentifyResult": {
			        "executionState": "EXECUTION_SUCCESS", "matchState": "MATCH_FOUND",
			        "data": { "text": "Sure, email [EMAIL_ADDRESS] for access." },
			        "transformedBytes": "16", "infoTypes": ["EMAIL_ADDRESS"] } } },
			      "malicious_uris": { "maliciousUriFilterResult": { "executionState": "EXECUTION_SUCCESS", "matchState": "NO_MATCH_FOUND" } },
			      "rai": { "raiFilterResult": { "executionState": "EXECUTION_SUCCESS", "matchState": "NO_MATCH_FOUND" } }
			    },
			    "sanitizationMetadata": {}
			  }
			}
			""";

	@Test
	void readsTheUserPromptExample() {
		SanitizationResult result = read(USER_PROMPT_EXAMPLE);
		assertThat(result.filterMatchState()).isEqualTo(FilterMatchState.MATCH_FOUND);
		assertThat(result.invocationResult()).isEqualTo(InvocationResult.SUCCESS);
		assertThat(result.matchFound()).isTrue();
		assertThat(result.filterResults()).containsOnlyKeys("csam", "malicious_uris", "rai", "pi_and_jailbreak", "sdp");
		assertThat(result.matchedFilters()).containsExactly("pi_and_jailbreak");
		assertThat(result.deidentifiedText()).isEmpty();
		assertThat(result.sanitizationMetadata()).isEqualTo(new SanitizationMetadata(0, null, false));

		FilterResult csam = result.filterResults().get("csam");
		assertThat(csam.csamFilterFilterResult()).isNotNull();
		assertThat(csam.raiFilterResult()).isNull();
		assertThat(csam.executionState()).isEqualTo(FilterExecutionState.EXECUTION_SUCCESS);
		assertThat(csam.matchState()).isEqualTo(FilterMatchState.NO_MATCH_FOUND);
		assertThat(csam.matched()).isFalse();

		FilterResult pi = result.filterResults().get("pi_and_jailbreak");
		assertThat(pi.piAndJailbreakFilterResult().confidenceLevel()).isEqualTo(DetectionConfidenceLevel.HIGH);
		assertThat(pi.matched()).isTrue();
		assertThat(pi.details()).containsSame(pi.piAndJailbreakFilterResult());

		RaiFilterResult rai = result.filterResults().get("rai").raiFilterResult();
		assertThat(rai.raiFilterTypeResults()).containsOnlyKeys("sexually_explicit", "hate_speech", "harassment",
				"dangerous");
		// Leaving out a value means the proto3 default.
		assertThat(rai.raiFilterTypeResults().get("dangerous")).isEqualTo(new RaiFilterTypeResult(
				RaiFilterType.RAI_FILTER_TYPE_UNSPECIFIED, DetectionConfidenceLevel.DETECTION_CONFIDENCE_LEVEL_UNSPECIFIED,
				FilterMatchState.NO_MATCH_FOUND));
		assertThat(rai.messageItems()).isEmpty();

		SdpFilterResult sdp = result.filterResults().get("sdp").sdpFilterResult();
		assertThat(sdp.inspectResult().findings()).isEmpty();
		assertThat(sdp.inspectResult().findingsTruncated()).isFalse();
		assertThat(sdp.deidentifyResult()).isNull();
		assertThat(result.filterResults().get("sdp").matchState()).isEqualTo(FilterMatchState.NO_MATCH_FOUND);
	}

	@Test
	void readsTheModelResponseExample() {
		SanitizationResult result = read(MODEL_RESPONSE_EXAMPLE);
		assertThat(result.matchedFilters()).containsExactly("sdp");
		assertThat(result.deidentifiedText()).contains("Sure, email [EMAIL_ADDRESS] for access.");
		FilterResult sdp = result.filterResults().get("sdp");
		SdpDeidentifyResult deidentify = sdp.sdpFilterResult().deidentifyResult();
		assertThat(deidentify.transformedBytes()).isEqualTo(16);
		assertThat(deidentify.infoTypes()).containsExactly("EMAIL_ADDRESS");
		assertThat(sdp.executionState()).isEqualTo(FilterExecutionState.EXECUTION_SUCCESS);
		assertThat(sdp.matched()).isTrue();
		assertThat(result.filterResults().get("rai").raiFilterResult().raiFilterTypeResults()).isEmpty();
	}

	@Test
	void keepsTheApiOrderOfFilters() {
		SanitizationResult result = read("""
				{"sanitizationResult": {"filterResults": {
				  "sdp": {"sdpFilterResult": {"inspectResult": {"matchState": "MATCH_FOUND"}}},
				  "rai": {"raiFilterResult": {"matchState": "MATCH_FOUND"}},
				  "csam": {"csamFilterFilterResult": {"matchState": "MATCH_FOUND"}},
				  "malicious_uris": {"maliciousUriFilterResult": {"matchState": "MATCH_FOUND"}}}}}
				""");
		assertThat(result.filterResults().keySet()).containsExactly("sdp", "rai", "csam", "malicious_uris");
		assertThat(result.matchedFilters()).containsExactly("sdp", "rai", "csam", "malicious_uris");
	}

	@Test
	void readsEveryFilterKind() {
		SanitizationResult result = read("""
				{"sanitizationResult": {"filterMatchState": "MATCH_FOUND", "invocationResult": "PARTIAL",
				  "filterResults": {
				    "sdp": {"sdpFilterResult": {"inspectResult": {
				      "executionState": "EXECUTION_SUCCESS", "matchState": "MATCH_FOUND", "findingsTruncated": true,
				      "messageItems": [{"messageType": "WARNING", "message": "partial"}],
				      "findings": [{"infoType": "EMAIL_ADDRESS", "likelihood": "LIKELY",
				        "location": {"byteRange": {"start": "12", "end": "28"}, "codepointRange": {"start": 10, "end": 26}}}]}}},
				    "malicious_uris": {"maliciousUriFilterResult": {"executionState": "EXECUTION_SUCCESS",
				      "matchState": "MATCH_FOUND",
				      "maliciousUriMatchedItems": [{"uri": "http://bad.example", "locations": [{"start": "3", "end": "21"}]}]}},
				    "virus_scan": {"virusScanFilterResult": {"executionState": "EXECUTION_SUCCESS", "matchState": "MATCH_FOUND",
				      "scannedContentType": "PDF", "scannedSize": "2048",
				      "virusDetails": [{"vendor": "acme", "names": ["EICAR"], "threatType": "VIRUS_OR_WORM"}]}},
				    "csam": {"csamFilterFilterResult": {"executionState": "EXECUTION_SKIPPED",
				      "messageItems": [{"messageType": "INFO", "message": "skipped"}]}},
				    "rai": {"raiFilterResult": {"executionState": "EXECUTION_SUCCESS", "matchState": "MATCH_FOUND",
				      "raiFilterTypeResults": {"hate_speech": {"filterType": "HATE_SPEECH",
				        "confidenceLevel": "MEDIUM_AND_ABOVE", "matchState": "MATCH_FOUND"}}}}},
				  "sanitizationMetadata": {"errorCode": "7", "errorMessage": "partial failure",
				    "ignorePartialInvocationFailures": true}}}
				""");
		assertThat(result.invocationResult()).isEqualTo(InvocationResult.PARTIAL);
		assertThat(result.matchedFilters()).containsExactly("sdp", "malicious_uris", "virus_scan", "rai");
		assertThat(result.sanitizationMetadata()).isEqualTo(new SanitizationMetadata(7, "partial failure", true));

		SdpInspectResult inspect = result.filterResults().get("sdp").sdpFilterResult().inspectResult();
		assertThat(inspect.findingsTruncated()).isTrue();
		assertThat(inspect.messageItems()).containsExactly(new MessageItem(MessageType.WARNING, "partial"));
		assertThat(inspect.findings()).containsExactly(new SdpFinding("EMAIL_ADDRESS", SdpFindingLikelihood.LIKELY,
				new SdpFinding.SdpFindingLocation(new RangeInfo(12, 28), new RangeInfo(10, 26))));
		assertThat(result.filterResults().get("sdp").details()).containsSame(result.filterResults().get("sdp").sdpFilterResult());

		MaliciousUriFilterResult uris = result.filterResults().get("malicious_uris").maliciousUriFilterResult();
		assertThat(uris.maliciousUriMatchedItems())
			.containsExactly(new MaliciousUriMatchedItem("http://bad.example", List.of(new RangeInfo(3, 21))));

		VirusScanFilterResult virus = result.filterResults().get("virus_scan").virusScanFilterResult();
		assertThat(virus.scannedContentType()).isEqualTo(ScannedContentType.PDF);
		assertThat(virus.scannedSize()).isEqualTo(2048);
		assertThat(virus.virusDetails())
			.containsExactly(new VirusDetail("acme", List.of("EICAR"), ThreatType.VIRUS_OR_WORM));

		FilterResult csam = result.filterResults().get("csam");
		assertThat(csam.executionState()).isEqualTo(FilterExecutionState.EXECUTION_SKIPPED);
		assertThat(csam.matchState()).isEqualTo(FilterMatchState.FILTER_MATCH_STATE_UNSPECIFIED);
		assertThat(csam.details().orElseThrow().messageItems())
			.containsExactly(new MessageItem(MessageType.INFO, "skipped"));

		assertThat(result.filterResults().get("rai").raiFilterResult().raiFilterTypeResults()).containsExactly(
				entry("hate_speech", new RaiFilterTypeResult(RaiFilterType.HATE_SPEECH,
						DetectionConfidenceLevel.MEDIUM_AND_ABOVE, FilterMatchState.MATCH_FOUND)));
	}

	@Test
	void readsInt64AsStringsAndAsNumbers() {
		String template = """
				{"sanitizationResult": {"filterResults": {"sdp": {"sdpFilterResult": {"deidentifyResult": {
				  "transformedBytes": %1$s}}}, "virus_scan": {"virusScanFilterResult": {"scannedSize": %1$s}}},
				  "sanitizationMetadata": {"errorCode": %1$s}}}
				""";
		for (String value : List.of("\"9007199254740993\"", "9007199254740993")) {
			SanitizationResult result = read(template.formatted(value));
			assertThat(result.sanitizationMetadata().errorCode()).isEqualTo(9007199254740993L);
			assertThat(result.filterResults().get("sdp").sdpFilterResult().deidentifyResult().transformedBytes())
				.isEqualTo(9007199254740993L);
			assertThat(result.filterResults().get("virus_scan").virusScanFilterResult().scannedSize())
				.isEqualTo(9007199254740993L);
		}
	}

	@Test
	void ignoresUnknownFieldsAndReadsUnknownEnumValuesAsUnrecognized() {
		SanitizationResult result = read("""
				{"sanitizationResult": {"filterMatchState": "SOMETHING_NEW", "invocationResult": "ALSO_NEW",
				  "brandNewField": {"nested": [1, 2, 3]},
				  "filterResults": {
				    "rai": {"raiFilterResult": {"executionState": "EXECUTION_DEFERRED", "matchState": "MATCH_PROBABLE",
				      "unknownList": ["x"],
				      "raiFilterTypeResults": {"violence": {"filterType": "VIOLENCE", "confidenceLevel": "EXTREME",
				        "matchState": "MATCH_FOUND"}},
				      "messageItems": [{"messageType": "DEBUG", "message": "m"}]}},
				    "pi_and_jailbreak": {"piAndJailbreakFilterResult": {"confidenceLevel": "VERY_HIGH"}},
				    "sdp": {"sdpFilterResult": {"futureResult": {"matchState": "MATCH_FOUND", "futureImage": "AAAA"}}},
				    "sdp2": {"sdpFilterResult": {"inspectResult": {"matchState": "MATCH_FOUND",
				      "extractedImageText": "x",
				      "findings": [{"infoType": "X", "likelihood": "ALMOST_CERTAIN",
				        "location": {"contentLocations": [{"containerName": "c"}]}}]}}},
				    "virus_scan": {"virusScanFilterResult": {"scannedContentType": "IMAGE",
				      "virusDetails": [{"threatType": "RANSOMWARE"}]}},
				    "future_filter": {"futureFilterResult": {"matchState": "MATCH_FOUND"}}},
				  "sanitizationMetadata": {"streamChunkProcessed": {"text": "x"}}}}
				""");
		assertThat(result.filterMatchState()).isEqualTo(FilterMatchState.UNRECOGNIZED);
		assertThat(result.invocationResult()).isEqualTo(InvocationResult.UNRECOGNIZED);
		assertThat(result.matchFound()).isFalse();

		RaiFilterResult rai = result.filterResults().get("rai").raiFilterResult();
		assertThat(rai.executionState()).isEqualTo(FilterExecutionState.UNRECOGNIZED);
		assertThat(rai.matchState()).isEqualTo(FilterMatchState.UNRECOGNIZED);
		assertThat(rai.messageItems().get(0).messageType()).isEqualTo(MessageType.UNRECOGNIZED);
		assertThat(rai.raiFilterTypeResults().get("violence")).isEqualTo(new RaiFilterTypeResult(
				RaiFilterType.UNRECOGNIZED, DetectionConfidenceLevel.UNRECOGNIZED, FilterMatchState.MATCH_FOUND));
		assertThat(result.filterResults().get("pi_and_jailbreak").piAndJailbreakFilterResult().confidenceLevel())
			.isEqualTo(DetectionConfidenceLevel.UNRECOGNIZED);

		// An SDP result of a newer kind: neither inspect nor deidentify.
		FilterResult sdp = result.filterResults().get("sdp");
		assertThat(sdp.sdpFilterResult().inspectResult()).isNull();
		assertThat(sdp.sdpFilterResult().deidentifyResult()).isNull();
		assertThat(sdp.sdpFilterResult().redactResult()).isNull();
		assertThat(sdp.matchState()).isEqualTo(FilterMatchState.FILTER_MATCH_STATE_UNSPECIFIED);
		assertThat(sdp.sdpFilterResult().messageItems()).isEmpty();

		SdpFinding finding = result.filterResults().get("sdp2").sdpFilterResult().inspectResult().findings().get(0);
		assertThat(finding.likelihood()).isEqualTo(SdpFindingLikelihood.UNRECOGNIZED);
		assertThat(finding.location()).isEqualTo(new SdpFinding.SdpFindingLocation(null, null,
				List.of(new SdpFinding.SdpContentLocation("c", null))));

		VirusScanFilterResult virus = result.filterResults().get("virus_scan").virusScanFilterResult();
		assertThat(virus.scannedContentType()).isEqualTo(ScannedContentType.UNRECOGNIZED);
		assertThat(virus.virusDetails().get(0).threatType()).isEqualTo(ThreatType.UNRECOGNIZED);

		// A filter of a kind this client does not know: kept, but never reported as matched.
		FilterResult future = result.filterResults().get("future_filter");
		assertThat(future.details()).isEmpty();
		assertThat(future.matchState()).isEqualTo(FilterMatchState.FILTER_MATCH_STATE_UNSPECIFIED);
		assertThat(future.executionState()).isEqualTo(FilterExecutionState.FILTER_EXECUTION_STATE_UNSPECIFIED);
		assertThat(result.matchedFilters()).containsExactly("sdp2");
	}

	@Test
	void readsAnUnknownByteDataTypeAsUnrecognized() {
		DataItem item = ModelArmorJson.mapper()
			.readValue("{\"byteItem\": {\"byteDataType\": \"HOLOGRAM\", \"byteData\": \"AQI=\"}}", DataItem.class);
		assertThat(item.byteItem().byteDataType()).isEqualTo(ByteDataType.UNRECOGNIZED);
		assertThat(item.byteItem().byteData()).containsExactly(1, 2);
	}

	@Test
	void absentFieldsBecomeProto3Defaults() {
		SanitizationResult result = read("""
				{"sanitizationResult": {"filterResults": {
				  "sdp": {"sdpFilterResult": {"deidentifyResult": {}}},
				  "malicious_uris": {"maliciousUriFilterResult": {"maliciousUriMatchedItems": [{}]}},
				  "virus_scan": {"virusScanFilterResult": {"virusDetails": [{}]}},
				  "sdp2": {"sdpFilterResult": {"inspectResult": {"findings": [{}]}}}}}}
				""");
		assertThat(result.filterMatchState()).isEqualTo(FilterMatchState.FILTER_MATCH_STATE_UNSPECIFIED);
		assertThat(result.invocationResult()).isEqualTo(InvocationResult.INVOCATION_RESULT_UNSPECIFIED);
		assertThat(result.sanitizationMetadata()).isEqualTo(new SanitizationMetadata(0, null, false));
		SdpDeidentifyResult deidentify = result.filterResults().get("sdp").sdpFilterResult().deidentifyResult();
		assertThat(deidentify).isEqualTo(new SdpDeidentifyResult(FilterExecutionState.FILTER_EXECUTION_STATE_UNSPECIFIED,
				List.of(), FilterMatchState.FILTER_MATCH_STATE_UNSPECIFIED, null, 0, List.of()));
		assertThat(result.deidentifiedText()).isEmpty();
		assertThat(result.filterResults().get("malicious_uris").maliciousUriFilterResult().maliciousUriMatchedItems())
			.containsExactly(new MaliciousUriMatchedItem("", List.of()));
		VirusScanFilterResult virus = result.filterResults().get("virus_scan").virusScanFilterResult();
		assertThat(virus.scannedContentType()).isEqualTo(ScannedContentType.SCANNED_CONTENT_TYPE_UNSPECIFIED);
		assertThat(virus.scannedSize()).isZero();
		assertThat(virus.messageItems()).isEmpty();
		assertThat(virus.virusDetails())
			.containsExactly(new VirusDetail("", List.of(), ThreatType.THREAT_TYPE_UNSPECIFIED));
		assertThat(result.filterResults().get("sdp2").sdpFilterResult().inspectResult().findings())
			.containsExactly(new SdpFinding("", SdpFindingLikelihood.SDP_FINDING_LIKELIHOOD_UNSPECIFIED, null));
	}

	@Test
	void readsExplicitNullsAsDefaults() {
		SanitizationResult result = read("""
				{"sanitizationResult": {"filterMatchState": null, "filterResults": null,
				  "sanitizationMetadata": {"errorCode": null, "errorMessage": null,
				    "ignorePartialInvocationFailures": null}}}
				""");
		assertThat(result.filterMatchState()).isEqualTo(FilterMatchState.FILTER_MATCH_STATE_UNSPECIFIED);
		assertThat(result.filterResults()).isEmpty();
		assertThat(result.sanitizationMetadata()).isEqualTo(new SanitizationMetadata(0, null, false));
	}

	@Test
	void readsAnEmptyResponse() {
		SanitizeResponse response = ModelArmorJson.mapper().readValue("{}".getBytes(), SanitizeResponse.class);
		assertThat(response.sanitizationResult()).isNull();
		SanitizationResult result = read("{\"sanitizationResult\": {}}");
		assertThat(result.filterResults()).isEmpty();
		assertThat(result.matchedFilters()).isEmpty();
		assertThat(result.matchFound()).isFalse();
	}

	@Test
	void resultIsImmutable() {
		SanitizationResult result = read(MODEL_RESPONSE_EXAMPLE);
		assertThatExceptionOfType(UnsupportedOperationException.class)
			.isThrownBy(() -> result.filterResults().remove("sdp"));
		assertThatExceptionOfType(UnsupportedOperationException.class)
			.isThrownBy(() -> result.filterResults().put("x", result.filterResults().get("sdp")));
		assertThatExceptionOfType(UnsupportedOperationException.class)
			.isThrownBy(() -> result.matchedFilters().add("x"));
		SdpDeidentifyResult deidentify = result.filterResults().get("sdp").sdpFilterResult().deidentifyResult();
		assertThatExceptionOfType(UnsupportedOperationException.class)
			.isThrownBy(() -> deidentify.infoTypes().add("x"));
		assertThatExceptionOfType(UnsupportedOperationException.class)
			.isThrownBy(() -> deidentify.messageItems().clear());
		SanitizationResult full = read("""
				{"sanitizationResult": {"filterResults": {"rai": {"raiFilterResult": {
				  "raiFilterTypeResults": {"dangerous": {}}}}}}}
				""");
		assertThatExceptionOfType(UnsupportedOperationException.class)
			.isThrownBy(() -> full.filterResults().get("rai").raiFilterResult().raiFilterTypeResults().clear());
	}

	@Test
	void constructorCopiesCollections() {
		java.util.Map<String, FilterResult> filters = new java.util.LinkedHashMap<>();
		filters.put("csam", new FilterResult(null, null, null, null,
				new CsamFilterResult(null, null, FilterMatchState.MATCH_FOUND), null));
		List<String> infoTypes = new java.util.ArrayList<>(List.of("EMAIL_ADDRESS"));
		SdpDeidentifyResult deidentify = new SdpDeidentifyResult(null, null, null, null, 0, infoTypes);
		SanitizationResult result = new SanitizationResult(FilterMatchState.MATCH_FOUND, null, filters, null);
		filters.clear();
		infoTypes.clear();
		assertThat(result.filterResults()).containsOnlyKeys("csam");
		assertThat(result.matchedFilters()).containsExactly("csam");
		assertThat(deidentify.infoTypes()).containsExactly("EMAIL_ADDRESS");
		assertThat(result.sanitizationMetadata()).isEqualTo(new SanitizationMetadata(0, null, false));
	}

	@Test
	void toStringNeverShowsContent() {
		SanitizeResponse response = ModelArmorJson.mapper().readValue("""
				{"sanitizationResult": {"filterMatchState": "MATCH_FOUND", "invocationResult": "SUCCESS",
				  "filterResults": {
				    "sdp": {"sdpFilterResult": {"deidentifyResult": {"matchState": "MATCH_FOUND",
				      "data": {"text": "Mail %1$s at [EMAIL_ADDRESS]"},
				      "messageItems": [{"messageType": "INFO", "message": "saw %1$s"}]}}},
				    "sdp2": {"sdpFilterResult": {"inspectResult": {"matchState": "MATCH_FOUND",
				      "messageItems": [{"messageType": "INFO", "message": "%1$s"}]}}},
				    "malicious_uris": {"maliciousUriFilterResult": {"matchState": "MATCH_FOUND",
				      "maliciousUriMatchedItems": [{"uri": "http://%1$s.example"}],
				      "messageItems": [{"messageType": "ERROR", "message": "%1$s"}]}},
				    "rai": {"raiFilterResult": {"messageItems": [{"messageType": "WARNING", "message": "%1$s"}]}}},
				  "sanitizationMetadata": {"errorCode": "3", "errorMessage": "%1$s"}}}
				""".formatted(SECRET).getBytes(), SanitizeResponse.class);
		SanitizationResult result = response.sanitizationResult();
		assertThat(result.deidentifiedText()).contains("Mail " + SECRET + " at [EMAIL_ADDRESS]");
		assertThat(result.toString()).doesNotContain(SECRET)
			.contains("MATCH_FOUND", "SUCCESS", "sdp", "sdp2", "malicious_uris", "rai");
		assertThat(response.toString()).doesNotContain(SECRET);
		assertThat(result.sanitizationMetadata().toString()).doesNotContain(SECRET);
		for (FilterResult filter : result.filterResults().values()) {
			assertThat(filter.toString()).doesNotContain(SECRET);
		}
	}

	@Test
	void readsTheImageFieldsOfV1AsGoogleDocumentsThemAndNeverShowsThem() {
		SanitizationResult result = read("""
				{"sanitizationResult": {"filterMatchState": "MATCH_FOUND", "invocationResult": "SUCCESS",
				  "filterResults": {
				    "sdp": {"sdpFilterResult": {"inspectResult": {
				      "executionState": "EXECUTION_SUCCESS", "matchState": "MATCH_FOUND",
				      "extractedImageText": "call SECRET-4711",
				      "findings": [{"infoType": "PHONE_NUMBER", "likelihood": "LIKELY",
				        "location": {"byteRange": {"start": "5", "end": "16"},
				          "contentLocations": [{"containerName": "SECRET-4711-scan.pdf",
				            "imageFindingLocation": {"boundingBoxes": [{"top": 10, "left": 20, "width": 300, "height": 40}]}}]}}]}}},
				    "sdp_image": {"sdpFilterResult": {"redactResult": {
				      "executionState": "EXECUTION_SUCCESS", "matchState": "MATCH_FOUND",
				      "extractedImageText": "SECRET-4711"}}}}}}
				""");

		SdpInspectResult inspect = result.filterResults().get("sdp").sdpFilterResult().inspectResult();
		assertThat(inspect.extractedImageText()).isEqualTo("call SECRET-4711");
		SdpFinding.SdpFindingLocation location = inspect.findings().get(0).location();
		assertThat(location.byteRange()).isEqualTo(new RangeInfo(5, 16));
		assertThat(location.contentLocations()).containsExactly(new SdpFinding.SdpContentLocation("SECRET-4711-scan.pdf",
				new SdpFinding.SdpImageFindingLocation(List.of(new SdpFinding.SdpBoundingBox(10, 20, 300, 40)))));
		assertThat(result.filterResults().get("sdp_image").sdpFilterResult().redactResult().extractedImageText())
			.isEqualTo("SECRET-4711");
		assertThat(result.toString()).doesNotContain(SECRET);
		assertThat(inspect.toString()).doesNotContain(SECRET).contains("extractedImageText=16 chars");
		// A location in text only keeps its two-argument form, with no content locations.
		assertThat(new SdpFinding.SdpFindingLocation(null, null).contentLocations()).isEmpty();
	}

	private static SanitizationResult read(String json) {
		SanitizeResponse response = ModelArmorJson.mapper().readValue(json.getBytes(), SanitizeResponse.class);
		assertThat(response.sanitizationResult()).isNotNull();
		return response.sanitizationResult();
	}

	private static <V> java.util.Map.Entry<String, V> entry(String key, V value) {
		return java.util.Map.entry(key, value);
	}

}
