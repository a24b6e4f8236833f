package dev.modelarmor.samples.springai;

import java.util.List;
import java.util.Map;

import dev.modelarmor.ai.document.ScreenedDocuments;

import org.jspecify.annotations.Nullable;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.rag.advisor.RetrievalAugmentationAdvisor;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * Text the user did not type: documents retrieved for the question, and what a tool returns. Both are
 * screened by the starter before the model reads them; this controller has no screening code.
 * <ul>
 * <li>{@code POST /chat/rag} {@code {"message": "..."}} → {@code {"reply", "documentsDropped",
 * "documentFilters"}}: answered from the {@link KnowledgeBase}; a poisoned page is dropped from the
 * prompt, and the answer's context says how many were dropped and by which filters.</li>
 * <li>{@code POST /chat/tools} {@code {"message": "..."}} → {@code {"reply"}}: the model may call
 * {@link ParcelTools}; a tool result that carries an injection is replaced by a refusal the model
 * reads.</li>
 * <li>{@code POST /chat/mcp} {@code {"message": "..."}} → {@code {"reply"}}: the model may call the tools
 * of the carrier's MCP server ({@link CarrierMcpClient}); the one whose description is poisoned is
 * withheld from the model, and an injected result is replaced by the refusal.</li>
 * </ul>
 */
@RestController
public class KnowledgeController {

	private final ChatClient chat;

	private final RetrievalAugmentationAdvisor knowledge;

	private final ParcelTools parcels;

	private final CarrierMcpClient carrier;

	KnowledgeController(ChatClient.Builder builder, RetrievalAugmentationAdvisor knowledgeAdvisor,
			ParcelTools parcels, CarrierMcpClient carrier) {
		this.chat = builder.build();
		this.knowledge = knowledgeAdvisor;
		this.parcels = parcels;
		this.carrier = carrier;
	}

	/**
	 * Answers a question from the knowledge base.
	 * @param request the question
	 * @return the reply and what screening dropped
	 */
	@PostMapping("/chat/rag")
	public KnowledgeReply rag(@RequestBody ChatRequest request) {
		ChatClientResponse response = this.chat.prompt()
			.advisors(this.knowledge)
			.user(ChatController.message(request))
			.call()
			.chatClientResponse();
		Map<String, @Nullable Object> context = response.context();
		Object dropped = context.get(ScreenedDocuments.DROPPED);
		return new KnowledgeReply(ChatController.text(response.chatResponse()), (dropped instanceof Integer count) ? count : 0,
				ChatController.filters(context.get(ScreenedDocuments.FILTERS)));
	}

	/**
	 * Answers a question with the parcel tool at hand.
	 * @param request the question
	 * @return the reply
	 */
	@PostMapping("/chat/tools")
	public ToolReply tools(@RequestBody ChatRequest request) {
		ChatClientResponse response = this.chat.prompt()
			.user(ChatController.message(request))
			.tools(this.parcels)
			.call()
			.chatClientResponse();
		return new ToolReply(ChatController.text(response.chatResponse()));
	}

	/**
	 * Answers a question with the carrier's MCP tools at hand.
	 * @param request the question
	 * @return the reply
	 */
	@PostMapping("/chat/mcp")
	public ToolReply mcp(@RequestBody ChatRequest request) {
		ChatClientResponse response = this.chat.prompt()
			.user(ChatController.message(request))
			.tools(this.carrier.tools())
			.call()
			.chatClientResponse();
		return new ToolReply(ChatController.text(response.chatResponse()));
	}

	/**
	 * The answer of {@code POST /chat/rag}.
	 * @param reply the screened answer
	 * @param documentsDropped how many retrieved documents were left out of the prompt
	 * @param documentFilters the filters that matched in them, sorted
	 */
	public record KnowledgeReply(String reply, int documentsDropped, List<String> documentFilters) {

		/**
		 * Copies the filters.
		 */
		public KnowledgeReply {
			documentFilters = List.copyOf(documentFilters);
		}

	}

	/**
	 * The answer of {@code POST /chat/tools}.
	 * @param reply the screened answer
	 */
	public record ToolReply(String reply) {
	}

}
