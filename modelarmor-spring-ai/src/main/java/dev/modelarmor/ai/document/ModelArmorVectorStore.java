package dev.modelarmor.ai.document;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

import org.springframework.ai.document.Document;
import org.springframework.ai.vectorstore.SearchRequest;
import org.springframework.ai.vectorstore.VectorStore;
import org.springframework.ai.vectorstore.filter.Filter;

/**
 * A {@link VectorStore} whose search results are screened by a {@link ModelArmorDocumentScreener} before
 * they are returned, for retrieval that has no document post-processor: Spring AI's
 * {@code QuestionAnswerAdvisor} puts what {@code similaritySearch} returns straight into the prompt.
 *
 * <pre class="code">
 * QuestionAnswerAdvisor.builder(ModelArmorVectorStore.wrap(vectorStore, modelArmorDocumentScreener)).build();
 * </pre>
 *
 * <p>Writes and deletes go to the wrapped store unchanged. A dropped document is reported in the metrics
 * and log lines; a search has no request context to carry {@link ScreenedDocuments#DROPPED}, so prefer
 * {@link ModelArmorDocumentPostProcessor} with a {@code RetrievalAugmentationAdvisor} when the answer
 * must say so. Use one or the other: both would screen each document twice.
 */
public final class ModelArmorVectorStore implements VectorStore {

	private final VectorStore delegate;

	private final ModelArmorDocumentScreener screener;

	private ModelArmorVectorStore(VectorStore delegate, ModelArmorDocumentScreener screener) {
		this.delegate = delegate;
		this.screener = screener;
	}

	/**
	 * Wraps a store so that its search results are screened. A store that is already wrapped is returned
	 * as it is.
	 * @param store the store
	 * @param screener screens each document found
	 * @return the screened store
	 */
	public static VectorStore wrap(VectorStore store, ModelArmorDocumentScreener screener) {
		Objects.requireNonNull(store, "store");
		Objects.requireNonNull(screener, "screener");
		return (store instanceof ModelArmorVectorStore) ? store : new ModelArmorVectorStore(store, screener);
	}

	@Override
	public List<Document> similaritySearch(SearchRequest request) {
		return this.screener.screen(this.delegate.similaritySearch(request)).documents();
	}

	@Override
	public String getName() {
		return this.delegate.getName();
	}

	@Override
	public void add(List<Document> documents) {
		this.delegate.add(documents);
	}

	@Override
	public void delete(List<String> idList) {
		this.delegate.delete(idList);
	}

	@Override
	public void delete(Filter.Expression filterExpression) {
		this.delegate.delete(filterExpression);
	}

	@Override
	public <T> Optional<T> getNativeClient() {
		return this.delegate.getNativeClient();
	}

}
