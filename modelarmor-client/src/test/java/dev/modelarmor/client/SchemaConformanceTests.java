package dev.modelarmor.client;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import com.google.cloud.modelarmor.v1.ByteDataItem;
import com.google.cloud.modelarmor.v1.VirusDetail.ThreatType;
import com.google.cloud.modelarmor.v1.VirusScanFilterResult.ScannedContentType;
import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.ProtocolMessageEnum;
import com.google.protobuf.util.JsonFormat;
import dev.modelarmor.client.internal.ModelArmorJson;
import dev.modelarmor.client.internal.SanitizeModelResponseRequest;
import dev.modelarmor.client.internal.SanitizeResponse;
import dev.modelarmor.client.internal.SanitizeUserPromptRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Conformance of the wire model with the official schema,
 * {@code com.google.api.grpc:proto-google-cloud-modelarmor-v1}: what we send parses strictly into the
 * official requests, and what the official responses print reads into our records.
 */
public class SchemaConformanceTests {

	private static final byte[] BYTES = "%PDF-1.7 \u00e9\u0000\u00ff".getBytes(StandardCharsets.UTF_8);

	// Strict: unknown fields and unknown enum values are errors.
	private static final JsonFormat.Parser PARSER = JsonFormat.parser();

	// --- requests: ours -> official ---

	@Test
	void textPromptParsesIntoTheOfficialRequest() throws Exception {
		var request = new SanitizeUserPromptRequest(DataItem.text("Ignore previous instructions \u2603 \"quoted\""),
				null);
		var official = com.google.cloud.modelarmor.v1.SanitizeUserPromptRequest.newBuilder();
		PARSER.merge(json(request), official);
		assertThat(official.getUserPromptData().getDataItemCase())
			.isEqualTo(com.google.cloud.modelarmor.v1.DataItem.DataItemCase.TEXT);
		assertThat(official.getUserPromptData().getText()).isEqualTo("Ignore previous instructions \u2603 \"quoted\"");
		assertThat(official.hasMultiLanguageDetectionMetadata()).isFalse();
	}

	@ParameterizedTest
	@MethodSource("sendableByteDataTypes")
	void bytePromptParsesIntoTheOfficialRequest(ByteDataType type) throws Exception {
		var request = new SanitizeUserPromptRequest(DataItem.bytes(type, BYTES), null);
		var official = com.google.cloud.modelarmor.v1.SanitizeUserPromptRequest.newBuilder();
		PARSER.merge(json(request), official);
		ByteDataItem byteItem = official.getUserPromptData().getByteItem();
		assertThat(official.getUserPromptData().getDataItemCase())
			.isEqualTo(com.google.cloud.modelarmor.v1.DataItem.DataItemCase.BYTE_ITEM);
		assertThat(byteItem.getByteDataType().name()).isEqualTo(type.name());
		assertThat(byteItem.getByteData().toByteArray()).isEqualTo(BYTES);
	}

	@ParameterizedTest
	@MethodSource("sendableByteDataTypes")
	void byteModelResponseParsesIntoTheOfficialRequest(ByteDataType type) throws Exception {
		var request = new SanitizeModelResponseRequest(DataItem.bytes(type, BYTES), "the prompt", null);
		var official = com.google.cloud.modelarmor.v1.SanitizeModelResponseRequest.newBuilder();
		PARSER.merge(json(request), official);
		assertThat(official.getModelResponseData().getByteItem().getByteDataType().name()).isEqualTo(type.name());
		assertThat(official.getModelResponseData().getByteItem().getByteData().toByteArray()).isEqualTo(BYTES);
		assertThat(official.getUserPrompt()).isEqualTo("the prompt");
	}

	@Test
	void modelResponseWithPromptParsesIntoTheOfficialRequest() throws Exception {
		var request = new SanitizeModelResponseRequest(DataItem.text("Sure, email jane@example.com"),
				"Who do I contact?", null);
		var official = com.google.cloud.modelarmor.v1.SanitizeModelResponseRequest.newBuilder();
		PARSER.merge(json(request), official);
		assertThat(official.getModelResponseData().getText()).isEqualTo("Sure, email jane@example.com");
		assertThat(official.getUserPrompt()).isEqualTo("Who do I contact?");
	}

	@Test
	void modelResponseWithoutPromptLeavesThePromptOut() throws Exception {
		var request = new SanitizeModelResponseRequest(DataItem.text("answer"), null, null);
		String json = json(request);
		assertThat(json).isEqualTo("{\"modelResponseData\":{\"text\":\"answer\"}}");
		var official = com.google.cloud.modelarmor.v1.SanitizeModelResponseRequest.newBuilder();
		PARSER.merge(json, official);
		assertThat(official.getModelResponseData().getText()).isEqualTo("answer");
		assertThat(official.getUserPrompt()).isEmpty();
	}

	@Test
	void requestsSerializeExactlyAsTheApiDefines() {
		assertThat(json(new SanitizeUserPromptRequest(DataItem.text("hi"), null)))
			.isEqualTo("{\"userPromptData\":{\"text\":\"hi\"}}");
		assertThat(json(new SanitizeModelResponseRequest(DataItem.text("a"), "p", null)))
			.isEqualTo("{\"modelResponseData\":{\"text\":\"a\"},\"userPrompt\":\"p\"}");
	}

	@Test
	void requestToStringNeverShowsContent() {
		assertThat(new SanitizeModelResponseRequest(DataItem.text("SECRET-1"), "SECRET-2", null).toString())
			.doesNotContain("SECRET");
		assertThat(new SanitizeUserPromptRequest(DataItem.text("SECRET-1"), null).toString()).doesNotContain("SECRET");
	}

	// IMAGE is newer than the schema jar (0.29.0): the strict parser must reject it, and this test
	// fails once a newer schema knows it, so that sendableByteDataTypes() can include it.
	@Test
	void imageIsUnknownToThisSchemaVersion() {
		var request = new SanitizeUserPromptRequest(DataItem.image(TestImages.png()), null);
		assertThat(protoNames(ByteDataItem.ByteItemType.values())).doesNotContain("IMAGE");
		assertThatExceptionOfType(InvalidProtocolBufferException.class)
			.isThrownBy(() -> PARSER.merge(json(request),
					com.google.cloud.modelarmor.v1.SanitizeUserPromptRequest.newBuilder()));
	}

	static Stream<ByteDataType> sendableByteDataTypes() {
		Set<String> official = protoNames(ByteDataItem.ByteItemType.values());
		return Arrays.stream(ByteDataType.values()).filter((type) -> official.contains(type.name()));
	}

	// --- enums: every official value has a counterpart ---

	static Stream<Arguments> enumPairs() {
		return Stream.of(Arguments.of(com.google.cloud.modelarmor.v1.FilterMatchState.values(), FilterMatchState.class),
				Arguments.of(com.google.cloud.modelarmor.v1.InvocationResult.values(), InvocationResult.class),
				Arguments.of(com.google.cloud.modelarmor.v1.FilterExecutionState.values(), FilterExecutionState.class),
				Arguments.of(com.google.cloud.modelarmor.v1.DetectionConfidenceLevel.values(),
						DetectionConfidenceLevel.class),
				Arguments.of(com.google.cloud.modelarmor.v1.SdpFindingLikelihood.values(), SdpFindingLikelihood.class),
				Arguments.of(com.google.cloud.modelarmor.v1.RaiFilterType.values(), RaiFilterType.class),
				Arguments.of(com.google.cloud.modelarmor.v1.MessageItem.MessageType.values(), MessageType.class),
				Arguments.of(ScannedContentType.values(), dev.modelarmor.client.ScannedContentType.class),
				Arguments.of(ThreatType.values(), dev.modelarmor.client.ThreatType.class),
				Arguments.of(ByteDataItem.ByteItemType.values(), ByteDataType.class));
	}

	@ParameterizedTest
	@MethodSource("enumPairs")
	<E extends Enum<E>> void enumHasEveryOfficialValue(Enum<?>[] official, Class<E> ours) {
		Set<String> ourNames = Arrays.stream(ours.getEnumConstants()).map(Enum::name).collect(Collectors.toSet());
		assertThat(ourNames).contains("UNRECOGNIZED").containsAll(protoNames(official));
		Set<String> extra = ourNames.stream()
			.filter((name) -> !name.equals("UNRECOGNIZED") && !protoNames(official).contains(name))
			.collect(Collectors.toSet());
		// Only IMAGE and ZIP are newer than the schema jar.
		assertThat(extra).isSubsetOf("IMAGE", "ZIP");
	}

	// --- responses: official -> ours ---

	@Test
	void fullyPopulatedOfficialResultReadsFieldByField() throws Exception {
		com.google.cloud.modelarmor.v1.SanitizationResult official = fullOfficialResult();
		String json = JsonFormat.printer()
			.print(com.google.cloud.modelarmor.v1.SanitizeUserPromptResponse.newBuilder()
				.setSanitizationResult(official)
				.build());
		SanitizeResponse response = ModelArmorJson.mapper()
			.readValue(json.getBytes(StandardCharsets.UTF_8), SanitizeResponse.class);
		assertSameResult(response.sanitizationResult(), official);
		assertThat(response.sanitizationResult().matchedFilters()).containsExactly("rai", "sdp", "sdp_deidentify",
				"pi_and_jailbreak", "malicious_uris", "csam", "virus_scan");
		assertThat(response.sanitizationResult().deidentifiedText()).contains("Mail [EMAIL_ADDRESS]");
	}

	@Test
	void modelResponseAnswerReadsTheSameWay() throws Exception {
		com.google.cloud.modelarmor.v1.SanitizationResult official = fullOfficialResult();
		String json = JsonFormat.printer()
			.print(com.google.cloud.modelarmor.v1.SanitizeModelResponseResponse.newBuilder()
				.setSanitizationResult(official)
				.build());
		SanitizeResponse response = ModelArmorJson.mapper()
			.readValue(json.getBytes(StandardCharsets.UTF_8), SanitizeResponse.class);
		assertSameResult(response.sanitizationResult(), official);
	}

	@Test
	void officialResultWithDefaultValuesPrintedReads() throws Exception {
		var official = com.google.cloud.modelarmor.v1.SanitizationResult.newBuilder()
			.putFilterResults("csam", com.google.cloud.modelarmor.v1.FilterResult.newBuilder()
				.setCsamFilterFilterResult(com.google.cloud.modelarmor.v1.CsamFilterResult.getDefaultInstance())
				.build())
			.putFilterResults("virus_scan", com.google.cloud.modelarmor.v1.FilterResult.newBuilder()
				.setVirusScanFilterResult(com.google.cloud.modelarmor.v1.VirusScanFilterResult.getDefaultInstance())
				.build())
			.putFilterResults("sdp", com.google.cloud.modelarmor.v1.FilterResult.newBuilder()
				.setSdpFilterResult(com.google.cloud.modelarmor.v1.SdpFilterResult.newBuilder()
					.setDeidentifyResult(com.google.cloud.modelarmor.v1.SdpDeidentifyResult.getDefaultInstance()))
				.build())
			.setSanitizationMetadata(com.google.cloud.modelarmor.v1.SanitizationResult.SanitizationMetadata
				.getDefaultInstance())
			.build();
		String json = JsonFormat.printer()
			.alwaysPrintFieldsWithNoPresence()
			.print(com.google.cloud.modelarmor.v1.SanitizeUserPromptResponse.newBuilder()
				.setSanitizationResult(official)
				.build());
		SanitizationResult result = ModelArmorJson.mapper()
			.readValue(json.getBytes(StandardCharsets.UTF_8), SanitizeResponse.class)
			.sanitizationResult();
		assertSameResult(result, official);
		assertThat(result.matchedFilters()).isEmpty();
		assertThat(result.sanitizationMetadata().errorMessage()).isEmpty();
	}

	// Everything we read, written back by our mapper, parses strictly into the same official message:
	// no field of the schema is lost or misnamed.
	@Test
	void resultRoundTripsThroughOurModelWithoutLoss() throws Exception {
		var official = com.google.cloud.modelarmor.v1.SanitizeUserPromptResponse.newBuilder()
			.setSanitizationResult(fullOfficialResult())
			.build();
		SanitizeResponse ours = ModelArmorJson.mapper()
			.readValue(JsonFormat.printer().print(official).getBytes(StandardCharsets.UTF_8), SanitizeResponse.class);
		var reparsed = com.google.cloud.modelarmor.v1.SanitizeUserPromptResponse.newBuilder();
		PARSER.merge(ModelArmorJson.mapper().writeValueAsString(ours), reparsed);
		assertThat(reparsed.build()).isEqualTo(official);
	}

	public static com.google.cloud.modelarmor.v1.SanitizationResult fullOfficialResult() {
		var messages = List.of(
				com.google.cloud.modelarmor.v1.MessageItem.newBuilder()
					.setMessageType(com.google.cloud.modelarmor.v1.MessageItem.MessageType.WARNING)
					.setMessage("warning text")
					.build(),
				com.google.cloud.modelarmor.v1.MessageItem.newBuilder()
					.setMessageType(com.google.cloud.modelarmor.v1.MessageItem.MessageType.ERROR)
					.setMessage("error text")
					.build());
		var success = com.google.cloud.modelarmor.v1.FilterExecutionState.EXECUTION_SUCCESS;
		var match = com.google.cloud.modelarmor.v1.FilterMatchState.MATCH_FOUND;
		var noMatch = com.google.cloud.modelarmor.v1.FilterMatchState.NO_MATCH_FOUND;
		var rai = com.google.cloud.modelarmor.v1.RaiFilterResult.newBuilder()
			.setExecutionState(success)
			.setMatchState(match)
			.addAllMessageItems(messages)
			.putRaiFilterTypeResults("hate_speech",
					com.google.cloud.modelarmor.v1.RaiFilterResult.RaiFilterTypeResult.newBuilder()
						.setFilterType(com.google.cloud.modelarmor.v1.RaiFilterType.HATE_SPEECH)
						.setConfidenceLevel(com.google.cloud.modelarmor.v1.DetectionConfidenceLevel.MEDIUM_AND_ABOVE)
						.setMatchState(match)
						.build())
			.putRaiFilterTypeResults("dangerous",
					com.google.cloud.modelarmor.v1.RaiFilterResult.RaiFilterTypeResult.newBuilder()
						.setFilterType(com.google.cloud.modelarmor.v1.RaiFilterType.DANGEROUS)
						.setConfidenceLevel(com.google.cloud.modelarmor.v1.DetectionConfidenceLevel.LOW_AND_ABOVE)
						.setMatchState(noMatch)
						.build());
		var inspect = com.google.cloud.modelarmor.v1.SdpInspectResult.newBuilder()
			.setExecutionState(success)
			.setMatchState(match)
			.addMessageItems(messages.get(0))
			.setFindingsTruncated(true)
			.addFindings(com.google.cloud.modelarmor.v1.SdpFinding.newBuilder()
				.setInfoType("EMAIL_ADDRESS")
				.setLikelihood(com.google.cloud.modelarmor.v1.SdpFindingLikelihood.VERY_LIKELY)
				.setLocation(com.google.cloud.modelarmor.v1.SdpFinding.SdpFindingLocation.newBuilder()
					.setByteRange(range(12, 28))
					.setCodepointRange(range(10, 26))))
			.addFindings(com.google.cloud.modelarmor.v1.SdpFinding.newBuilder()
				.setInfoType("PHONE_NUMBER")
				.setLikelihood(com.google.cloud.modelarmor.v1.SdpFindingLikelihood.UNLIKELY)
				.setLocation(com.google.cloud.modelarmor.v1.SdpFinding.SdpFindingLocation.newBuilder()
					.setByteRange(range(0, 9_000_000_000L))
					.setCodepointRange(range(0, 3))));
		var deidentify = com.google.cloud.modelarmor.v1.SdpDeidentifyResult.newBuilder()
			.setExecutionState(success)
			.setMatchState(match)
			.addMessageItems(messages.get(1))
			.setData(com.google.cloud.modelarmor.v1.DataItem.newBuilder().setText("Mail [EMAIL_ADDRESS]"))
			.setTransformedBytes(16)
			.addInfoTypes("EMAIL_ADDRESS")
			.addInfoTypes("PHONE_NUMBER");
		var deidentifyBytes = com.google.cloud.modelarmor.v1.SdpDeidentifyResult.newBuilder()
			.setExecutionState(success)
			.setMatchState(noMatch)
			.setData(com.google.cloud.modelarmor.v1.DataItem.newBuilder()
				.setByteItem(ByteDataItem.newBuilder()
					.setByteDataType(ByteDataItem.ByteItemType.CSV)
					.setByteData(ByteString.copyFrom(BYTES))));
		var pi = com.google.cloud.modelarmor.v1.PiAndJailbreakFilterResult.newBuilder()
			.setExecutionState(success)
			.setMatchState(match)
			.setConfidenceLevel(com.google.cloud.modelarmor.v1.DetectionConfidenceLevel.HIGH);
		var uris = com.google.cloud.modelarmor.v1.MaliciousUriFilterResult.newBuilder()
			.setExecutionState(success)
			.setMatchState(match)
			.addMaliciousUriMatchedItems(
					com.google.cloud.modelarmor.v1.MaliciousUriFilterResult.MaliciousUriMatchedItem.newBuilder()
						.setUri("http://malware.example/x")
						.addLocations(range(3, 27))
						.addLocations(range(40, 64)));
		var csam = com.google.cloud.modelarmor.v1.CsamFilterResult.newBuilder()
			.setExecutionState(success)
			.setMatchState(match)
			.addMessageItems(messages.get(0));
		var virus = com.google.cloud.modelarmor.v1.VirusScanFilterResult.newBuilder()
			.setExecutionState(success)
			.setMatchState(match)
			.setScannedContentType(ScannedContentType.PDF)
			.setScannedSize(123_456_789_012L)
			.addVirusDetails(com.google.cloud.modelarmor.v1.VirusDetail.newBuilder()
				.setVendor("acme")
				.addNames("EICAR")
				.addNames("EICAR-Test")
				.setThreatType(ThreatType.POTENTIALLY_UNWANTED_CONTENT));
		var skipped = com.google.cloud.modelarmor.v1.CsamFilterResult.newBuilder()
			.setExecutionState(com.google.cloud.modelarmor.v1.FilterExecutionState.EXECUTION_SKIPPED)
			.setMatchState(noMatch);
		return com.google.cloud.modelarmor.v1.SanitizationResult.newBuilder()
			.setFilterMatchState(match)
			.setInvocationResult(com.google.cloud.modelarmor.v1.InvocationResult.PARTIAL)
			.putFilterResults("rai", filter().setRaiFilterResult(rai).build())
			.putFilterResults("sdp", filter()
				.setSdpFilterResult(com.google.cloud.modelarmor.v1.SdpFilterResult.newBuilder().setInspectResult(inspect))
				.build())
			.putFilterResults("sdp_deidentify",
					filter().setSdpFilterResult(
							com.google.cloud.modelarmor.v1.SdpFilterResult.newBuilder().setDeidentifyResult(deidentify))
						.build())
			.putFilterResults("sdp_bytes",
					filter().setSdpFilterResult(com.google.cloud.modelarmor.v1.SdpFilterResult.newBuilder()
						.setDeidentifyResult(deidentifyBytes)).build())
			.putFilterResults("pi_and_jailbreak", filter().setPiAndJailbreakFilterResult(pi).build())
			.putFilterResults("malicious_uris", filter().setMaliciousUriFilterResult(uris).build())
			.putFilterResults("csam", filter().setCsamFilterFilterResult(csam).build())
			.putFilterResults("virus_scan", filter().setVirusScanFilterResult(virus).build())
			.putFilterResults("csam_skipped", filter().setCsamFilterFilterResult(skipped).build())
			.setSanitizationMetadata(com.google.cloud.modelarmor.v1.SanitizationResult.SanitizationMetadata.newBuilder()
				.setErrorCode(9_000_000_001L)
				.setErrorMessage("some filters failed")
				.setIgnorePartialInvocationFailures(true))
			.build();
	}

	private static com.google.cloud.modelarmor.v1.FilterResult.Builder filter() {
		return com.google.cloud.modelarmor.v1.FilterResult.newBuilder();
	}

	private static com.google.cloud.modelarmor.v1.RangeInfo range(long start, long end) {
		return com.google.cloud.modelarmor.v1.RangeInfo.newBuilder().setStart(start).setEnd(end).build();
	}

	// --- field-by-field comparison, mapping enums by the proto's own names ---

	private static void assertSameResult(SanitizationResult ours,
			com.google.cloud.modelarmor.v1.SanitizationResult official) {
		assertThat(ours).isNotNull();
		assertSameEnum(ours.filterMatchState(), official.getFilterMatchState());
		assertSameEnum(ours.invocationResult(), official.getInvocationResult());
		assertThat(ours.matchFound())
			.isEqualTo(official.getFilterMatchState() == com.google.cloud.modelarmor.v1.FilterMatchState.MATCH_FOUND);
		var metadata = official.getSanitizationMetadata();
		assertThat(ours.sanitizationMetadata().errorCode()).isEqualTo(metadata.getErrorCode());
		assertThat(ours.sanitizationMetadata().ignorePartialInvocationFailures())
			.isEqualTo(metadata.getIgnorePartialInvocationFailures());
		if (!metadata.getErrorMessage().isEmpty()) {
			assertThat(ours.sanitizationMetadata().errorMessage()).isEqualTo(metadata.getErrorMessage());
		}
		assertThat(ours.filterResults().keySet()).isEqualTo(official.getFilterResultsMap().keySet());
		for (Map.Entry<String, com.google.cloud.modelarmor.v1.FilterResult> entry : official.getFilterResultsMap()
			.entrySet()) {
			assertSameFilter(ours.filterResults().get(entry.getKey()), entry.getValue());
		}
	}

	private static void assertSameFilter(FilterResult ours, com.google.cloud.modelarmor.v1.FilterResult official) {
		assertThat(ours.raiFilterResult() != null).isEqualTo(official.hasRaiFilterResult());
		assertThat(ours.sdpFilterResult() != null).isEqualTo(official.hasSdpFilterResult());
		assertThat(ours.piAndJailbreakFilterResult() != null).isEqualTo(official.hasPiAndJailbreakFilterResult());
		assertThat(ours.maliciousUriFilterResult() != null).isEqualTo(official.hasMaliciousUriFilterResult());
		assertThat(ours.csamFilterFilterResult() != null).isEqualTo(official.hasCsamFilterFilterResult());
		assertThat(ours.virusScanFilterResult() != null).isEqualTo(official.hasVirusScanFilterResult());
		switch (official.getFilterResultCase()) {
			case RAI_FILTER_RESULT -> {
				var o = official.getRaiFilterResult();
				assertSameCommon(ours.raiFilterResult(), o.getExecutionState(), o.getMatchState(), o.getMessageItemsList());
				var types = ours.raiFilterResult().raiFilterTypeResults();
				assertThat(types.keySet()).isEqualTo(o.getRaiFilterTypeResultsMap().keySet());
				o.getRaiFilterTypeResultsMap().forEach((key, value) -> {
					assertSameEnum(types.get(key).filterType(), value.getFilterType());
					assertSameEnum(types.get(key).confidenceLevel(), value.getConfidenceLevel());
					assertSameEnum(types.get(key).matchState(), value.getMatchState());
				});
			}
			case SDP_FILTER_RESULT -> {
				var o = official.getSdpFilterResult();
				SdpFilterResult sdp = ours.sdpFilterResult();
				assertThat(sdp.inspectResult() != null).isEqualTo(o.hasInspectResult());
				assertThat(sdp.deidentifyResult() != null).isEqualTo(o.hasDeidentifyResult());
				if (o.hasInspectResult()) {
					var inspect = o.getInspectResult();
					assertSameCommon(sdp.inspectResult(), inspect.getExecutionState(), inspect.getMatchState(),
							inspect.getMessageItemsList());
					assertThat(sdp.inspectResult().findingsTruncated()).isEqualTo(inspect.getFindingsTruncated());
					assertThat(sdp.inspectResult().findings()).hasSize(inspect.getFindingsCount());
					for (int i = 0; i < inspect.getFindingsCount(); i++) {
						var finding = inspect.getFindings(i);
						SdpFinding ourFinding = sdp.inspectResult().findings().get(i);
						assertThat(ourFinding.infoType()).isEqualTo(finding.getInfoType());
						assertSameEnum(ourFinding.likelihood(), finding.getLikelihood());
						assertSameRange(ourFinding.location().byteRange(), finding.getLocation().getByteRange());
						assertSameRange(ourFinding.location().codepointRange(),
								finding.getLocation().getCodepointRange());
					}
				}
				if (o.hasDeidentifyResult()) {
					var deidentify = o.getDeidentifyResult();
					SdpDeidentifyResult ourDeidentify = sdp.deidentifyResult();
					assertSameCommon(ourDeidentify, deidentify.getExecutionState(), deidentify.getMatchState(),
							deidentify.getMessageItemsList());
					assertThat(ourDeidentify.transformedBytes()).isEqualTo(deidentify.getTransformedBytes());
					assertThat(ourDeidentify.infoTypes()).isEqualTo(deidentify.getInfoTypesList());
					assertSameData(ourDeidentify.data(), deidentify.hasData() ? deidentify.getData() : null);
				}
				assertThat(ours.matchState().name())
					.isEqualTo(o.hasInspectResult() ? o.getInspectResult().getMatchState().name()
							: o.getDeidentifyResult().getMatchState().name());
			}
			case PI_AND_JAILBREAK_FILTER_RESULT -> {
				var o = official.getPiAndJailbreakFilterResult();
				assertSameCommon(ours.piAndJailbreakFilterResult(), o.getExecutionState(), o.getMatchState(),
						o.getMessageItemsList());
				assertSameEnum(ours.piAndJailbreakFilterResult().confidenceLevel(), o.getConfidenceLevel());
			}
			case MALICIOUS_URI_FILTER_RESULT -> {
				var o = official.getMaliciousUriFilterResult();
				assertSameCommon(ours.maliciousUriFilterResult(), o.getExecutionState(), o.getMatchState(),
						o.getMessageItemsList());
				var items = ours.maliciousUriFilterResult().maliciousUriMatchedItems();
				assertThat(items).hasSize(o.getMaliciousUriMatchedItemsCount());
				for (int i = 0; i < items.size(); i++) {
					var item = o.getMaliciousUriMatchedItems(i);
					assertThat(items.get(i).uri()).isEqualTo(item.getUri());
					assertThat(items.get(i).locations()).hasSize(item.getLocationsCount());
					for (int j = 0; j < item.getLocationsCount(); j++) {
						assertSameRange(items.get(i).locations().get(j), item.getLocations(j));
					}
				}
			}
			case CSAM_FILTER_FILTER_RESULT -> {
				var o = official.getCsamFilterFilterResult();
				assertSameCommon(ours.csamFilterFilterResult(), o.getExecutionState(), o.getMatchState(),
						o.getMessageItemsList());
			}
			case VIRUS_SCAN_FILTER_RESULT -> {
				var o = official.getVirusScanFilterResult();
				VirusScanFilterResult virus = ours.virusScanFilterResult();
				assertSameCommon(virus, o.getExecutionState(), o.getMatchState(), o.getMessageItemsList());
				assertSameEnum(virus.scannedContentType(), o.getScannedContentType());
				assertThat(virus.scannedSize()).isEqualTo(o.getScannedSize());
				assertThat(virus.virusDetails()).hasSize(o.getVirusDetailsCount());
				for (int i = 0; i < o.getVirusDetailsCount(); i++) {
					assertThat(virus.virusDetails().get(i).vendor()).isEqualTo(o.getVirusDetails(i).getVendor());
					assertThat(virus.virusDetails().get(i).names()).isEqualTo(o.getVirusDetails(i).getNamesList());
					assertSameEnum(virus.virusDetails().get(i).threatType(), o.getVirusDetails(i).getThreatType());
				}
			}
			default -> throw new AssertionError("Unexpected filter kind " + official.getFilterResultCase());
		}
	}

	private static void assertSameCommon(FilterDetails ours, ProtocolMessageEnum executionState,
			ProtocolMessageEnum matchState, List<com.google.cloud.modelarmor.v1.MessageItem> messages) {
		assertThat(ours).isNotNull();
		assertSameEnum(ours.executionState(), executionState);
		assertSameEnum(ours.matchState(), matchState);
		assertThat(ours.messageItems()).hasSize(messages.size());
		for (int i = 0; i < messages.size(); i++) {
			assertSameEnum(ours.messageItems().get(i).messageType(), messages.get(i).getMessageType());
			assertThat(ours.messageItems().get(i).message()).isEqualTo(messages.get(i).getMessage());
		}
	}

	private static void assertSameData(DataItem ours, com.google.cloud.modelarmor.v1.DataItem official) {
		if (official == null) {
			assertThat(ours).isNull();
			return;
		}
		switch (official.getDataItemCase()) {
			case TEXT -> assertThat(ours).isEqualTo(DataItem.text(official.getText()));
			case BYTE_ITEM -> {
				assertSameEnum(ours.byteItem().byteDataType(), official.getByteItem().getByteDataType());
				assertThat(ours.byteItem().byteData()).isEqualTo(official.getByteItem().getByteData().toByteArray());
				assertThat(ours.text()).isNull();
			}
			default -> assertThat(ours).isEqualTo(new DataItem(null, null));
		}
	}

	private static void assertSameRange(RangeInfo ours, com.google.cloud.modelarmor.v1.RangeInfo official) {
		assertThat(ours).isEqualTo(new RangeInfo(official.getStart(), official.getEnd()));
	}

	private static void assertSameEnum(Enum<?> ours, ProtocolMessageEnum official) {
		assertThat(ours.name()).isEqualTo(((Enum<?>) official).name());
	}

	private static Set<String> protoNames(Enum<?>[] values) {
		return Arrays.stream(values)
			.map(Enum::name)
			.filter((name) -> !name.equals("UNRECOGNIZED"))
			.collect(Collectors.toSet());
	}

	private static String json(Object request) {
		return ModelArmorJson.mapper().writeValueAsString(request);
	}

}
