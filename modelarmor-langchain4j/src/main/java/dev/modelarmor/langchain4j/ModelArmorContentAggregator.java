package dev.modelarmor.langchain4j;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.rag.content.Content;
import dev.langchain4j.rag.content.aggregator.ContentAggregator;
import dev.langchain4j.rag.content.aggregator.DefaultContentAggregator;
import dev.langchain4j.invocation.InvocationParameters;
import dev.langchain4j.rag.query.Metadata;
import dev.langchain4j.rag.query.Query;
import dev.modelarmor.screening.ModelArmorScreening;
import dev.modelarmor.screening.Phase;
import dev.modelarmor.screening.ScreeningDecision;
import dev.modelarmor.screening.ScreeningRequest;
import org.jspecify.annotations.Nullable;

/**
 * A LangChain4j {@link ContentAggregator} that screens each retrieved segment with Model Armor as content going to
 * the model (the prompt-injection filter runs) and drops those refused, the clean ones kept in their order, before
 * the content injector puts them into the prompt. It aggregates with another aggregator first
 * ({@link DefaultContentAggregator} unless given), so only what would reach the prompt is screened. A segment
 * that could not be screened is dropped unless fail-open is on. The segments are screened at once. Unless given a
 * template, it screens with the one the starter's tenant resolver chooses for the tenant of the query's call
 * ({@link TenantSource}); a tenant that has no template keeps every segment out of the prompt.
 *
 * <pre>{@code
 * RetrievalAugmentor augmentor = DefaultRetrievalAugmentor.builder()
 *     .contentRetriever(contentRetriever)
 *     .contentAggregator(modelArmorContentAggregator)
 *     .build();
 * }</pre>
 */
public final class ModelArmorContentAggregator implements ContentAggregator {

	private static final String CALLER = "ModelArmorContentAggregator";

	private final ContentAggregator delegate;

	private final ModelArmorScreening screening;

	private final @Nullable String template;

	private final TenantSource tenants;

	/**
	 * Creates the aggregator over LangChain4j's {@link DefaultContentAggregator}.
	 * @param screening the starter's screening
	 * @param template the template to screen with, or {@code null} for {@code modelarmor.template-id}
	 */
	public ModelArmorContentAggregator(ModelArmorScreening screening, @Nullable String template) {
		this(new DefaultContentAggregator(), screening, template);
	}

	/**
	 * Creates the aggregator over another one, such as a re-ranking aggregator.
	 * @param delegate aggregates first
	 * @param screening the starter's screening
	 * @param template the template to screen with, or {@code null} for {@code modelarmor.template-id}
	 */
	public ModelArmorContentAggregator(ContentAggregator delegate, ModelArmorScreening screening,
			@Nullable String template) {
		this(delegate, screening, template, TenantSource.INVOCATION_PARAMETER);
	}

	/**
	 * Creates the aggregator over another one, finding a call's tenant as told.
	 * @param delegate aggregates first
	 * @param screening the starter's screening
	 * @param template the template to screen with, or {@code null} for the one the tenant resolver chooses
	 * @param tenants where a call's tenant is found: in the query's metadata
	 */
	public ModelArmorContentAggregator(ContentAggregator delegate, ModelArmorScreening screening,
			@Nullable String template, TenantSource tenants) {
		this.delegate = Objects.requireNonNull(delegate, "delegate must not be null");
		this.screening = Objects.requireNonNull(screening, "screening must not be null");
		this.template = template;
		this.tenants = Objects.requireNonNull(tenants, "tenants must not be null");
	}

	@Override
	public List<Content> aggregate(Map<Query, Collection<List<Content>>> queryToContents) {
		List<Content> aggregated = this.delegate.aggregate(queryToContents);
		if (aggregated.isEmpty()) {
			return aggregated;
		}
		Metadata metadata = queryToContents.keySet().stream().map(Query::metadata).filter(Objects::nonNull)
			.findFirst().orElse(null);
		InvocationParameters parameters = (metadata != null) ? metadata.invocationParameters() : null;
		Object memoryId = (metadata != null) ? metadata.chatMemoryId() : null;
		Screenings.Bound bound = Screenings.bind(this.screening,
				ScreeningRequest.of(Phase.DOCUMENT, CALLER, "").withTemplate(this.template),
				this.tenants.tenant(parameters, memoryId), TenantSource.attributes(parameters, memoryId));
		if (bound.refusal() != null) {
			// a tenant without a template: nothing retrieved reaches the prompt
			return List.of();
		}
		String template = bound.template();
		List<CompletableFuture<ScreeningDecision>> decisions = new ArrayList<>(aggregated.size());
		for (Content content : aggregated) {
			TextSegment segment = content.textSegment();
			String text = (segment != null) ? segment.text() : null;
			decisions.add((text == null || text.isBlank()) ? CompletableFuture.completedFuture(ScreeningDecision.PASS)
					: this.screening.screenAsync(ScreeningRequest.of(Phase.DOCUMENT, CALLER, text)
						.withTemplate(template)));
		}
		try {
			Screenings.await(CompletableFuture.allOf(decisions.toArray(CompletableFuture[]::new)));
		}
		catch (RuntimeException ex) {
			decisions.forEach((decision) -> decision.cancel(true));
			throw ex;
		}
		List<Content> kept = new ArrayList<>(aggregated.size());
		for (int i = 0; i < aggregated.size(); i++) {
			if (!(decisions.get(i).join() instanceof ScreeningDecision.Refusal)) {
				kept.add(aggregated.get(i));
			}
		}
		return kept;
	}

}
