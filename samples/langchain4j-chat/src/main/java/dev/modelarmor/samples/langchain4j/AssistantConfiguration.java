package dev.modelarmor.samples.langchain4j;

import dev.langchain4j.rag.DefaultRetrievalAugmentor;
import dev.langchain4j.service.AiServices;
import dev.modelarmor.langchain4j.ModelArmorContentAggregator;
import dev.modelarmor.langchain4j.ModelArmorInputGuardrail;
import dev.modelarmor.langchain4j.ModelArmorOutputGuardrail;
import dev.modelarmor.langchain4j.ModelArmorToolInputGuardrail;
import dev.modelarmor.langchain4j.ModelArmorToolOutputGuardrail;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The AI service, built with LangChain4j's {@code AiServices} from the beans {@code modelarmor-langchain4j}
 * auto-configures: each is one line of the builder.
 */
@Configuration(proxyBeanMethods = false)
class AssistantConfiguration {

	@Bean
	DeterministicModel deterministicModel() {
		return new DeterministicModel();
	}

	@Bean
	TravelTools travelTools() {
		return new TravelTools();
	}

	@Bean
	TravelAssistant travelAssistant(DeterministicModel model, TravelTools tools,
			ModelArmorInputGuardrail inputGuardrail, ModelArmorOutputGuardrail outputGuardrail,
			ModelArmorToolInputGuardrail toolInputGuardrail, ModelArmorToolOutputGuardrail toolOutputGuardrail,
			ModelArmorContentAggregator contentAggregator) {
		return AiServices.builder(TravelAssistant.class)
			.chatModel(model)
			.streamingChatModel(new DeterministicStreamingModel(model))
			.tools(tools, new CurrencyTools())
			.retrievalAugmentor(DefaultRetrievalAugmentor.builder()
				.contentRetriever(new TravelGuides())
				.contentAggregator(contentAggregator)
				.build())
			.inputGuardrails(inputGuardrail)
			.outputGuardrails(outputGuardrail)
			.beforeToolExecution(toolInputGuardrail)
			.chatRequestTransformer(toolOutputGuardrail)
			.build();
	}

}
