package dev.modelarmor.ai.advisor;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import dev.modelarmor.ai.advisor.ModelArmorAdvisorOptions.OnBlock;
import dev.modelarmor.screening.ScreeningDecision.Blocked;
import dev.modelarmor.screening.ScreeningDecision.Refusal;
import dev.modelarmor.screening.ScreeningDecision.Rejected;
import org.jspecify.annotations.Nullable;

import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.metadata.ChatGenerationMetadata;
import org.springframework.ai.chat.metadata.ChatResponseMetadata;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;

/**
 * The one place where a refusal becomes the advisor's answer: the refused {@link ChatClientResponse},
 * with the {@link ModelArmorAdvisor#BLOCKED} keys in its metadata and context, or the refusal's exception
 * with {@link OnBlock#THROW}. The call path and every stream strategy refuse alike through it, and neither
 * the response nor the exception carries any of the content.
 */
final class AdvisorRefusals {

	private static final String MATCHED = "matched";

	private static final String NOT_SCREENED = "not_screened";

	private static final String INPUT_REJECTED = "input_rejected";

	private final ModelArmorAdvisorOptions options;

	AdvisorRefusals(ModelArmorAdvisorOptions options) {
		this.options = options;
	}

	/** The refusal as the answer, keeping the given context; or its exception, with on-block throw. */
	ChatClientResponse refuseOrThrow(Refusal refusal, Map<String, @Nullable Object> context) {
		if (this.options.onBlock() == OnBlock.THROW) {
			throw refusal.exception();
		}
		String phase = refusal.phase().name().toLowerCase(Locale.ROOT);
		String reason = (refusal instanceof Blocked) ? MATCHED
				: (refusal instanceof Rejected) ? INPUT_REJECTED : NOT_SCREENED;
		Set<String> filters = (refusal instanceof Blocked blocked) ? Set.copyOf(blocked.result().matchedFilters())
				: Set.of();
		ChatGenerationMetadata generationMetadata = ChatGenerationMetadata.builder()
			.finishReason(ModelArmorAdvisor.FINISH_REASON)
			.contentFilters(filters)
			.build();
		ChatResponseMetadata metadata = ChatResponseMetadata.builder()
			.keyValue(ModelArmorAdvisor.BLOCKED, Boolean.TRUE)
			.keyValue(ModelArmorAdvisor.PHASE, phase)
			.keyValue(ModelArmorAdvisor.REASON, reason)
			.keyValue(ModelArmorAdvisor.FILTERS, filters)
			.build();
		ChatResponse chatResponse = ChatResponse.builder()
			.generations(List.of(new Generation(new AssistantMessage(this.options.refusal()), generationMetadata)))
			.metadata(metadata)
			.build();
		return ChatClientResponse.builder()
			.chatResponse(chatResponse)
			.context(context)
			.context(ModelArmorAdvisor.BLOCKED, Boolean.TRUE)
			.context(ModelArmorAdvisor.PHASE, phase)
			.context(ModelArmorAdvisor.REASON, reason)
			.context(ModelArmorAdvisor.FILTERS, filters)
			.build();
	}

}
