package com.example.travel;

import dev.langchain4j.invocation.InvocationParameters;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.UserMessage;
import dev.modelarmor.langchain4j.ModelArmorInputGuardrail;
import dev.modelarmor.langchain4j.ModelArmorOutputGuardrail;
import dev.modelarmor.screening.ModelArmorTenant;

public class TenantChat {

	interface Assistant {

		String chat(@UserMessage String message, InvocationParameters parameters);

	}

	private final Assistant assistant;

	public TenantChat(ChatModel model, ModelArmorInputGuardrail input, ModelArmorOutputGuardrail output) {
		this.assistant = AiServices.builder(Assistant.class)
			.chatModel(model)
			.inputGuardrails(input)
			.outputGuardrails(output)
			.build();
	}

	public String ask(String tenant, String question) {
		// screened with modelarmor.tenants.<tenant>.template-id, in modelarmor.tenants.<tenant>.location
		return this.assistant.chat(question, InvocationParameters.from(ModelArmorTenant.KEY, tenant));
	}

}
