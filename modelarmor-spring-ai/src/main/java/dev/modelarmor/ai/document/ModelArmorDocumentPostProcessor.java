package dev.modelarmor.ai.document;

import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.springframework.ai.document.Document;
import org.springframework.ai.rag.Query;
import org.springframework.ai.rag.postretrieval.document.DocumentPostProcessor;

/**
 * Screens the documents that Spring AI's {@code RetrievalAugmentationAdvisor} retrieved, before its query
 * augmenter puts them into the prompt, with a {@link ModelArmorDocumentScreener}. Add it as the last
 * document post-processor, so that what is screened is what the model gets:
 *
 * <pre class="code">
 * RetrievalAugmentationAdvisor.builder()
 *     .documentRetriever(retriever)
 *     .documentPostProcessors(modelArmorDocumentPostProcessor)
 *     .build();
 * </pre>
 *
 * <p>The advisor hands the post-processor a query whose context is the request's; this one adds
 * {@link ScreenedDocuments#DROPPED} and {@link ScreenedDocuments#FILTERS} to it, and Spring AI copies the
 * request's context into the answer's ({@code ChatClientResponse.context()}). The advisor's own
 * {@code rag_document_context} entry lists only the documents that were kept.
 */
public final class ModelArmorDocumentPostProcessor implements DocumentPostProcessor {

	private final ModelArmorDocumentScreener screener;

	/**
	 * Creates a post-processor.
	 * @param screener screens each document
	 */
	public ModelArmorDocumentPostProcessor(ModelArmorDocumentScreener screener) {
		this.screener = Objects.requireNonNull(screener, "screener");
	}

	@Override
	public List<Document> process(Query query, List<Document> documents) {
		ScreenedDocuments screened = this.screener.screen(documents, query.context());
		report(query.context(), screened);
		return screened.documents();
	}

	/**
	 * Adds the report to the request's context. A query built with an unmodifiable context (by a caller
	 * other than the advisor) cannot carry it; the metrics and log lines still do.
	 */
	private static void report(Map<String, Object> context, ScreenedDocuments screened) {
		try {
			context.putAll(screened.context());
		}
		catch (UnsupportedOperationException ex) {
			// The report is an extra; the screening itself has been done.
		}
	}

}
