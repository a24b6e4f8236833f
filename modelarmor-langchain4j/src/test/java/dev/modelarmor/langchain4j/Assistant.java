package dev.modelarmor.langchain4j;

import dev.langchain4j.service.TokenStream;

/** The AI service of the tests. */
interface Assistant {

	String chat(String message);

	TokenStream stream(String message);

}
