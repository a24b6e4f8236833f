package dev.modelarmor.test;

import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.regex.Matcher;

import com.google.cloud.modelarmor.v1.SdpBasicConfig.SdpBasicConfigEnforcement;
import com.google.cloud.modelarmor.v1.Template;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The stand-in's template reads against the official schema: every byte of the answer parses strictly
 * (unknown fields rejected) as Model Armor's {@code Template}, and only template reads match.
 */
class StandInTemplatesTests {

	@Test
	void aTemplateReadAnswersWhatTheOfficialSchemaParsesStrictly() throws InvalidProtocolBufferException {
		Matcher path = StandInTemplates.readPath("GET", "/v1/projects/p1/locations/europe-west4/templates/t-1");
		assertThat(path).isNotNull();

		Template.Builder template = Template.newBuilder();
		JsonFormat.parser().merge(new String(StandInTemplates.json(path), StandardCharsets.UTF_8), template);

		assertThat(template.getName()).isEqualTo("projects/p1/locations/europe-west4/templates/t-1");
		assertThat(template.hasCreateTime()).isTrue();
		assertThat(template.getFilterConfig().getSdpSettings().getBasicConfig().getFilterEnforcement())
			.isEqualTo(SdpBasicConfigEnforcement.ENABLED);
	}

	@Test
	void onlyAGetOfATemplateIsARead() {
		assertThat(StandInTemplates.readPath("POST", "/v1/projects/p/locations/l/templates/t")).isNull();
		assertThat(StandInTemplates.readPath("GET", "/v1/projects/p/locations/l/templates/t:sanitizeUserPrompt"))
			.isNull();
		assertThat(StandInTemplates.readPath("GET", "/v1/projects/p/locations/l/templates")).isNull();
		assertThat(StandInTemplates.readPath("GET", "/v1/projects/p/locations/l/templates/t/x")).isNull();
	}

	@Test
	void everyTemplateExistsUntilSomeAreNamedAndAgainAfterReset() {
		StandInTemplates templates = new StandInTemplates();
		assertThat(templates.exists("anything")).isTrue();

		templates.exist(Set.of("chat"));
		assertThat(templates.exists("chat")).isTrue();
		assertThat(templates.exists("anything")).isFalse();

		templates.reset();
		assertThat(templates.exists("anything")).isTrue();
	}

}
