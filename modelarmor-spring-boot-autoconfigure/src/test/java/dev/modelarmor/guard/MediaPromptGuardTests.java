package dev.modelarmor.guard;

import java.net.URI;
import java.util.Base64;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.modelarmor.client.DataItem;
import dev.modelarmor.client.TestImages;
import dev.modelarmor.screening.ModelArmorInputRejectedException;
import dev.modelarmor.screening.ModelArmorViolationException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.ai.content.Media;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.core.io.Resource;
import org.springframework.core.io.UrlResource;
import org.springframework.mock.web.MockMultipartFile;
import org.springframework.util.MimeTypeUtils;
import org.springframework.web.multipart.MultipartFile;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static dev.modelarmor.guard.ModelArmorStubs.answerEverythingClean;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@code @ModelArmorGuarded} methods whose prompt is media: a {@code DataItem}, a {@code Resource}, an
 * uploaded {@code MultipartFile} and a Spring AI {@code Media} reached by a SpEL expression, screened over
 * real HTTP before the body runs; an image that matches blocks it; media given by URL is never fetched.
 */
class MediaPromptGuardTests {

	@RegisterExtension
	static WireMockExtension modelArmor = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	@RegisterExtension
	static WireMockExtension imageHost = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

	private final ApplicationContextRunner runner = ModelArmorStubs.runner(modelArmor)
		.withUserConfiguration(ModelArmorStubs.InstantRetries.class, Describing.class);

	@BeforeEach
	void answerCleanUnlessTold() {
		answerEverythingClean(modelArmor);
		imageHost.stubFor(get(anyUrl()).willReturn(aResponse().withStatus(200).withBody(TestImages.png())));
	}

	@Test
	void aDataItemImageIsScreenedAsAnImageBeforeTheBodyRuns() {
		byte[] image = TestImages.png();
		this.runner.run((context) -> {
			assertThat(context.getBean(Describer.class).describe(DataItem.image(image))).isEqualTo("described");
			assertThat(context.getBean(BodyRuns.class).count()).isEqualTo(1);
		});
		modelArmor.verify(1, postRequestedFor(urlPathMatching(".*:sanitizeUserPrompt"))
			.withRequestBody(matchingJsonPath("$.userPromptData.byteItem.byteDataType", equalTo("IMAGE")))
			.withRequestBody(matchingJsonPath("$.userPromptData.byteItem.byteData", equalTo(base64(image)))));
	}

	@Test
	void aMatchingImageBlocksTheBody() {
		byte[] image = TestImages.jpeg();
		flag(image);
		this.runner.run((context) -> {
			assertThatExceptionOfType(ModelArmorViolationException.class)
				.isThrownBy(() -> context.getBean(Describer.class).describe(DataItem.image(image)));
			assertThat(context.getBean(BodyRuns.class).count()).isZero();
		});
	}

	@Test
	void aResourceIsReadAndScreened() {
		byte[] image = TestImages.bmp();
		flag(image);
		this.runner.run((context) -> {
			assertThatExceptionOfType(ModelArmorViolationException.class)
				.isThrownBy(() -> context.getBean(Describer.class).describe(new ByteArrayResource(image)));
			assertThat(context.getBean(BodyRuns.class).count()).isZero();
		});
	}

	@Test
	void aResourceByUrlIsBlockedAndNeverFetched() {
		this.runner.run((context) -> {
			Resource remote = new UrlResource(URI.create(imageHost.baseUrl() + "/cat.png?sig=SECRET"));
			assertThatExceptionOfType(ModelArmorInputRejectedException.class)
				.isThrownBy(() -> context.getBean(Describer.class).describe(remote))
				.satisfies((ex) -> assertThat(ex.getMessage()).contains("given by URL").doesNotContain("SECRET"));
			assertThat(context.getBean(BodyRuns.class).count()).isZero();
		});
		imageHost.verify(0, anyRequestedFor(anyUrl()));
		assertThat(ModelArmorStubs.promptRequests(modelArmor)).isEmpty();
	}

	@Test
	void anUploadIsScreenedAsItsBytesSayWhateverItsContentTypeClaims() {
		byte[] image = TestImages.png();
		flag(image);
		this.runner.run((context) -> {
			MultipartFile upload = new MockMultipartFile("file", "notes.txt", "text/plain", image);
			assertThatExceptionOfType(ModelArmorViolationException.class)
				.isThrownBy(() -> context.getBean(Describer.class).upload(upload));
			assertThat(context.getBean(BodyRuns.class).count()).isZero();
		});
	}

	@Test
	void anUploadedPdfIsScreenedAsAPdfAndPasses() {
		byte[] pdf = "%PDF-1.4\n%%EOF".getBytes();
		this.runner.run((context) -> {
			MultipartFile upload = new MockMultipartFile("file", "report.pdf", "application/pdf", pdf);
			assertThat(context.getBean(Describer.class).upload(upload)).isEqualTo("uploaded");
		});
		modelArmor.verify(1, postRequestedFor(urlPathMatching(".*:sanitizeUserPrompt"))
			.withRequestBody(matchingJsonPath("$.userPromptData.byteItem.byteDataType", equalTo("PDF"))));
	}

	@Test
	void anOversizedUploadIsRejectedInEveryMode() {
		this.runner.withPropertyValues("modelarmor.screening.fail-open=true", "modelarmor.screening.unscreenable-media=allow")
			.run((context) -> {
				MultipartFile upload = new MockMultipartFile("file", "big.png", "image/png", TestImages.oversizedPng());
				assertThatExceptionOfType(ModelArmorInputRejectedException.class)
					.isThrownBy(() -> context.getBean(Describer.class).upload(upload))
					.satisfies((ex) -> assertThat(ex.tooLarge()).isTrue());
				assertThat(context.getBean(BodyRuns.class).count()).isZero();
			});
		assertThat(ModelArmorStubs.promptRequests(modelArmor)).isEmpty();
	}

	@Test
	void aSpringAiMediaReachedByAnExpressionIsScreened() {
		byte[] image = TestImages.png();
		flag(image);
		this.runner.run((context) -> {
			Media media = Media.builder().mimeType(MimeTypeUtils.IMAGE_PNG).data(image).build();
			assertThatExceptionOfType(ModelArmorViolationException.class)
				.isThrownBy(() -> context.getBean(Describer.class).ask(new Question("what is it?", media)));
			assertThat(context.getBean(BodyRuns.class).count()).isZero();
		});
	}

	static void flag(byte[] image) {
		modelArmor.stubFor(post(urlPathMatching(".*:sanitizeUserPrompt")).atPriority(1)
			.withRequestBody(matchingJsonPath("$.userPromptData.byteItem.byteData", equalTo(base64(image))))
			.willReturn(okJson(ModelArmorStubs.JAILBREAK)));
	}

	static String base64(byte[] data) {
		return Base64.getEncoder().encodeToString(data);
	}

	record Question(String text, Media image) {
	}

	@Configuration(proxyBeanMethods = false)
	static class Describing {

		@Bean
		BodyRuns bodyRuns() {
			return new BodyRuns();
		}

		@Bean
		Describer describer(BodyRuns runs) {
			return new Describer(runs);
		}

	}

	static class Describer {

		private final BodyRuns runs;

		Describer(BodyRuns runs) {
			this.runs = runs;
		}

		@ModelArmorGuarded
		public String describe(DataItem image) {
			this.runs.ran(image);
			return "described";
		}

		@ModelArmorGuarded
		public String describe(Resource file) {
			this.runs.ran(file);
			return "described";
		}

		@ModelArmorGuarded
		public String upload(MultipartFile file) {
			this.runs.ran(file);
			return "uploaded";
		}

		@ModelArmorGuarded(prompt = "#question.image")
		public String ask(Question question) {
			this.runs.ran(question);
			return "answered";
		}

	}

}
