package dev.modelarmor.gateway.internal;

import java.util.List;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * What one LLM API's traffic holds for screening, and how that API refuses: which requests it screens,
 * the untrusted parts of a request, the generations of an answer, its error JSON, how it ends a filtered
 * answer, and how its streams are framed. Fields a mapper does not read pass through untouched.
 */
interface ApiMapper {

	/**
	 * Whether a request to this path is one this API's mapper screens; others pass untouched.
	 * @param path the request's path, e.g. {@code /v1/chat/completions}
	 * @return whether to screen it
	 */
	boolean screens(String path);

	/**
	 * The untrusted parts of a request, each screened before anything is forwarded.
	 * @param request the request's JSON, whose text slots de-identification rewrites
	 * @param screenSystem whether system instructions are screened too
	 * @return the parts and the user's last text, sent along with the answer's screenings
	 * @throws BadInput when the request is not this API's
	 */
	Prompt prompt(ObjectNode request, boolean screenSystem);

	/**
	 * The generations of a whole answer.
	 * @param answer the answer's JSON, whose text slots de-identification rewrites
	 * @return one part per generation
	 * @throws BadInput when the answer is not this API's
	 */
	List<AnswerPart> answer(ObjectNode answer);

	/**
	 * The answer as this API sends one its filters stopped: the same envelope, no content.
	 * @param answer the refused answer
	 * @return the filtered answer
	 */
	ObjectNode refusedAnswer(ObjectNode answer);

	/**
	 * An error body in this API's shape.
	 * @param failure why
	 * @param message what to tell the client, never content
	 * @return the JSON
	 */
	ObjectNode error(Failure failure, String message);

	/**
	 * Reads one event of a streamed answer.
	 * @param event the event
	 * @return what it holds
	 * @throws BadInput when its data is not this API's
	 */
	StreamEvent event(SseEvent event);

	/**
	 * The ending of one stream, told of each event released.
	 * @return a new ending
	 */
	StreamEnding ending();

	/**
	 * The untrusted parts of a request.
	 *
	 * @param parts the parts
	 * @param userText the user's last text, or {@code null}
	 */
	record Prompt(List<PromptPart> parts, @Nullable String userText) {
	}

	/**
	 * How one stream ends when the filter ends it: after a refusal, or a failure.
	 */
	interface StreamEnding {

		/**
		 * An event was released to the client.
		 * @param event the event
		 */
		void released(StreamEvent event);

		/**
		 * The events that end a stream whose answer was refused, the API's filtered ending.
		 * @return raw events
		 */
		List<String> refused();

		/**
		 * The events that end a stream that could not be screened.
		 * @param failure why
		 * @param message what to tell the client, never content
		 * @return raw events
		 */
		List<String> failed(Failure failure, String message);

	}

}
