package dev.modelarmor.samples.langchain4j;

import dev.langchain4j.service.TokenStream;

/**
 * The LangChain4j AI service: LangChain4j implements it ({@link AssistantConfiguration}).
 */
public interface TravelAssistant {

	/**
	 * Answers a message.
	 * @param message the user's message
	 * @return the answer
	 */
	String chat(String message);

	/**
	 * Streams the answer to a message.
	 * @param message the user's message
	 * @return the answer's stream
	 */
	TokenStream stream(String message);

}
