package dev.modelarmor.screening;

import java.util.Map;

import dev.modelarmor.client.FilterMatchState;
import dev.modelarmor.client.InvocationResult;
import dev.modelarmor.client.ModelArmorException;
import dev.modelarmor.client.ModelArmorOperations;
import dev.modelarmor.client.SanitizationResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;

/**
 * A client that answers {@code null} (an unstubbed mock does, for every call) fails the screening with an
 * {@link IllegalStateException} naming the method to stub, on one window or several, rather than a
 * {@link NullPointerException} deep inside. It is no {@link ModelArmorException}, so fail-open never lets
 * such a call through.
 */
class LongTextScreeningNullResultTests {

	private static final SanitizationResult CLEAN = new SanitizationResult(FilterMatchState.NO_MATCH_FOUND,
			InvocationResult.SUCCESS, Map.of(), null);

	private final ModelArmorOperations operations = mock(ModelArmorOperations.class);

	private final LongTextScreening screening = new LongTextScreening(this.operations,
			new WindowSettings(1024, 128, 2, 64));

	@AfterEach
	void close() {
		this.screening.close();
	}

	@Test
	void aPromptThatGetsNullNamesTheMethodAndTheTypeItMustReturn() {
		assertThatIllegalStateException().isThrownBy(() -> this.screening.sanitizeUserPrompt("hello"))
			.withMessageContaining(".sanitizeUserPrompt(String) returned null instead of a SanitizationResult")
			.withMessageContaining("every call of a ModelArmorOperations must return one")
			.withMessageNotContaining("given(")
			.withMessageNotContaining("willReturn")
			.withMessageNotContaining("stub")
			.withMessageNotContaining("hello")
			.isNotInstanceOf(ModelArmorException.class);
	}

	@Test
	void aResponseNamesTheOverloadThatWasCalled() {
		assertThatIllegalStateException().isThrownBy(() -> this.screening.sanitizeModelResponse("answer", null))
			.withMessageContaining(".sanitizeModelResponse(String) returned null");
		assertThatIllegalStateException().isThrownBy(() -> this.screening.sanitizeModelResponse("answer", "question"))
			.withMessageContaining(".sanitizeModelResponse(String, String) returned null");
	}

	@Test
	void aWindowThatGetsNullFailsTheWholeText() {
		given(this.operations.sanitizeUserPrompt(anyString())).willReturn(CLEAN, (SanitizationResult) null);
		String longText = "Plain words about the weather. ".repeat(200);

		assertThatIllegalStateException().isThrownBy(() -> this.screening.sanitizeUserPrompt(longText))
			.withMessageContaining(".sanitizeUserPrompt(String) returned null");
	}

	@Test
	void aTemplateSwitchThatGetsNullNamesTheTypeItMustReturn() {
		assertThatIllegalStateException().isThrownBy(() -> this.screening.withTemplate("strict"))
			.withMessageContaining(".withTemplate(String) returned null instead of a ModelArmorOperations")
			.withMessageNotContaining("given(")
			.withMessageNotContaining("willReturn")
			.withMessageNotContaining("stub");
	}

	@Test
	void aStubbedClientIsScreenedAsBefore() {
		given(this.operations.sanitizeUserPrompt(anyString())).willReturn(CLEAN);
		given(this.operations.withTemplate("strict")).willReturn(this.operations);

		assertThat(this.screening.withTemplate("strict").sanitizeUserPrompt("hello")).isSameAs(CLEAN);
		assertThat(this.screening.sanitizeUserPrompt("hello")).isSameAs(CLEAN);
	}

}
