package dev.modelarmor.ai.document;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import dev.modelarmor.ai.document.ModelArmorDocumentOptions.OnBlockedDocument;
import dev.modelarmor.screening.MatchAction;
import dev.modelarmor.screening.ModelArmorInputRejectedException;
import dev.modelarmor.screening.ModelArmorNotScreenedException;
import dev.modelarmor.screening.ModelArmorScreening;
import dev.modelarmor.screening.ModelArmorTenant;
import dev.modelarmor.screening.ModelArmorViolationException;
import dev.modelarmor.screening.Phase;
import dev.modelarmor.screening.ScreeningDecision;
import dev.modelarmor.screening.ScreeningDecision.Blocked;
import dev.modelarmor.screening.ScreeningDecision.Deidentified;
import dev.modelarmor.screening.ScreeningDecision.Refusal;
import dev.modelarmor.screening.ScreeningObserver;
import dev.modelarmor.screening.ScreeningRequest;
import org.jspecify.annotations.Nullable;

import org.springframework.ai.document.Document;

/**
 * Screens documents retrieved for a prompt (RAG) before the model sees them: the way in for indirect
 * prompt injection, a poisoned page or ticket that tells the model what to do. Each document's text is
 * screened on its own as content going to the model ({@code sanitizeUserPrompt}, where the
 * prompt-injection filter runs), in overlapping windows when it is longer than the filters read, with the
 * decision policy of {@link ModelArmorScreening}:
 * <ul>
 * <li>no match: the document goes on unchanged;</li>
 * <li>a match that {@link MatchAction#DEIDENTIFY} can rewrite (Sensitive Data Protection alone): the
 * document goes on with its de-identified text, its id and metadata kept;</li>
 * <li>a match that blocks, text that Model Armor refused, or screening that could not complete with
 * {@code modelarmor.screening.fail-open} off: the document is dropped, or the whole call fails
 * ({@link OnBlockedDocument}).</li>
 * </ul>
 * A document without text (media only) contributes no text to the prompt and is passed on unscreened.
 * Every screening is reported to the {@code ScreeningObserver} with the phase {@link Phase#DOCUMENT} and
 * logged without any of the document. Thread-safe.
 */
public final class ModelArmorDocumentScreener {

	private static final String CALLER = "ModelArmorDocumentScreener.screen(List)";

	private final ModelArmorScreening screening;

	private final @Nullable String template;

	private final ModelArmorDocumentOptions options;

	/**
	 * Creates a document screener that screens with the default template.
	 * @param screening screens and decides
	 * @param options how blocked documents are handled
	 */
	public ModelArmorDocumentScreener(ModelArmorScreening screening, ModelArmorDocumentOptions options) {
		this(screening, null, options);
	}

	/**
	 * Creates a document screener.
	 * @param screening screens and decides
	 * @param template the template id to screen with, or {@code null} for the default
	 * @param options how blocked documents are handled
	 */
	public ModelArmorDocumentScreener(ModelArmorScreening screening, @Nullable String template,
			ModelArmorDocumentOptions options) {
		this.screening = Objects.requireNonNull(screening, "screening");
		this.template = template;
		this.options = Objects.requireNonNull(options, "options");
	}

	/**
	 * How this screener acts.
	 * @return the options
	 */
	public ModelArmorDocumentOptions options() {
		return this.options;
	}

	/**
	 * Screens each document on its own.
	 * @param documents the retrieved documents
	 * @return the documents that may reach the model, and what was dropped
	 * @throws RuntimeException the refusal's exception ({@code ModelArmorViolationException},
	 * {@code ModelArmorNotScreenedException} or {@code ModelArmorInputRejectedException}) for the first
	 * blocked document when {@link OnBlockedDocument#THROW}
	 */
	public ScreenedDocuments screen(List<Document> documents) {
		return screen(documents, Map.of());
	}

	/**
	 * Screens each document on its own, as {@link #screen(List)}, with the template the
	 * {@link dev.modelarmor.screening.ModelArmorTemplateResolver} chooses for the context's tenant
	 * ({@link ModelArmorTenant#KEY}, such as a retrieval query's context) when this screener names no template.
	 * @param documents the retrieved documents
	 * @param context the retrieval's context
	 * @return the documents that may reach the model, and what was dropped
	 */
	public ScreenedDocuments screen(List<Document> documents, Map<String, ? extends @Nullable Object> context) {
		String tenant = ModelArmorTenant.of(context);
		List<Document> kept = new ArrayList<>(documents.size());
		Set<String> filters = new LinkedHashSet<>();
		int dropped = 0;
		for (Document document : documents) {
			String text = document.getText();
			if (text == null || text.isBlank()) {
				kept.add(document);
				continue;
			}
			ScreeningDecision decision = this.screening.screen(ScreeningRequest.of(Phase.DOCUMENT, CALLER, text)
				.withTemplate(this.template)
				.withOnMatch(this.options.onMatch())
				.withReplaceable(true), tenant, context);
			if (decision instanceof Refusal refusal) {
				if (this.options.onBlock() == OnBlockedDocument.THROW) {
					throw refusal.exception();
				}
				dropped++;
				if (refusal instanceof Blocked blocked) {
					filters.addAll(blocked.result().matchedFilters());
				}
			}
			else if (decision instanceof Deidentified deidentified) {
				kept.add(document.mutate().text(deidentified.text()).build());
			}
			else {
				kept.add(document);
			}
		}
		return new ScreenedDocuments(kept, dropped, filters);
	}

}
