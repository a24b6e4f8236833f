package dev.modelarmor.ai.document;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.springframework.ai.document.Document;

/**
 * Retrieved documents after screening: those that may reach the model (de-identified where the match
 * action says so), and what was dropped, without any of its text.
 *
 * @param documents the documents to go on with, in their original order
 * @param dropped how many documents were dropped
 * @param filters the filters that matched in the dropped documents; empty when none matched (a document
 * that could not be screened is dropped without a filter)
 */
public record ScreenedDocuments(List<Document> documents, int dropped, Set<String> filters) {

	/**
	 * Context key: how many retrieved documents were dropped, an {@code Integer}; present whenever documents
	 * were screened, {@code 0} when none was dropped.
	 */
	public static final String DROPPED = "modelarmor.documents.dropped";

	/** Context key: the filters that matched in the dropped documents, a {@code Set<String>}. */
	public static final String FILTERS = "modelarmor.documents.filters";

	public ScreenedDocuments {
		documents = List.copyOf(documents);
		filters = Set.copyOf(filters);
	}

	/**
	 * The report of this screening for a request's context (and so the answer's): {@link #DROPPED} and
	 * {@link #FILTERS}.
	 * @return the context entries
	 */
	public Map<String, Object> context() {
		return Map.of(DROPPED, this.dropped, FILTERS, this.filters);
	}

}
