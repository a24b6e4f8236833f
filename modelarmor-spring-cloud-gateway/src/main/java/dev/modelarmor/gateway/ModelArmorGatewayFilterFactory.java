package dev.modelarmor.gateway;

import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

import dev.modelarmor.gateway.internal.GatewayOutcomes;
import dev.modelarmor.gateway.internal.RouteSettings;
import dev.modelarmor.gateway.internal.ScreeningGatewayFilter;
import dev.modelarmor.screening.MatchAction;
import dev.modelarmor.screening.ModelArmorScreening;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.factory.AbstractGatewayFilterFactory;
import org.springframework.cloud.gateway.support.HasRouteId;
import org.springframework.util.unit.DataSize;

/**
 * The {@code ModelArmor} gateway filter: screens a route's LLM traffic with Model Armor. The untrusted
 * parts of a request (user messages with their media, tool results, the history the client sends, system
 * messages when configured) are screened before anything is forwarded, with the prompt template; the
 * answer's text and tool calls with the response template, a streamed answer in segments, so that it starts
 * one screening after the model's first sentence and nothing unscreened reaches the client. Refusals come
 * in the API's own shape. In route configuration:
 *
 * <pre>{@code
 * filters:
 *   - name: ModelArmor
 *     args:
 *       api: openai
 *       prompt-template: llm-prompts
 * }</pre>
 *
 * or {@code - ModelArmor=openai}. Other requests on the route pass untouched. Arguments a route does not
 * set come from {@code modelarmor.gateway.*}.
 */
public class ModelArmorGatewayFilterFactory extends AbstractGatewayFilterFactory<ModelArmorGatewayFilterFactory.Config> {

	/** The filter's name in route definitions. */
	static final String NAME = "ModelArmor";

	private final Supplier<ModelArmorScreening> screening;

	private final ModelArmorGatewayProperties properties;

	private final GatewayOutcomes outcomes;

	/**
	 * Creates the factory.
	 * @param screening the starter's screening, looked up at a route's first exchange
	 * @param properties the defaults of every route
	 * @param meters where each route's outcomes are counted ({@code modelarmor.gateway.exchanges}), or
	 * {@code null} for nowhere
	 */
	public ModelArmorGatewayFilterFactory(Supplier<ModelArmorScreening> screening,
			ModelArmorGatewayProperties properties, @Nullable MeterRegistry meters) {
		super(Config.class);
		this.screening = screening;
		this.properties = properties;
		this.outcomes = new GatewayOutcomes(meters);
	}

	@Override
	public String name() {
		return NAME;
	}

	@Override
	public List<String> shortcutFieldOrder() {
		return List.of("api");
	}

	@Override
	public GatewayFilter apply(Config config) {
		ModelArmorGatewayProperties defaults = this.properties;
		ModelArmorGatewayProperties.Stream stream = defaults.getStream();
		MatchAction onMatch = (config.getOnMatch() != null) ? config.getOnMatch() : defaults.getOnMatch();
		Boolean screenSystem = config.getScreenSystemMessages();
		RouteSettings settings = new RouteSettings((config.getRouteId() != null) ? config.getRouteId() : "unnamed",
				config.getApi().name().toLowerCase(Locale.ROOT), blankToNull(config.getPromptTemplate()),
				blankToNull(config.getResponseTemplate()), onMatch,
				(screenSystem != null) ? screenSystem : defaults.isScreenSystemMessages(),
				Boolean.TRUE.equals(config.getFailOpen()),
				bytes(config.getMaxRequestSize(), defaults.getMaxRequestSize()),
				bytes(config.getMaxResponseSize(), defaults.getMaxResponseSize()),
				bytes(null, defaults.getMaxEventSize()), bytes(null, stream.getFirstSegment()),
				bytes(null, stream.getSegment()), bytes(null, stream.getOverlap()), defaults.getRetryAfter().toSeconds());
		return new ScreeningGatewayFilter(this.screening, settings, blankToNull(config.getTenant()),
				blankToNull(config.getTenantHeader()), this.outcomes);
	}

	private static int bytes(@Nullable DataSize route, DataSize defaults) {
		long size = (route != null) ? route.toBytes() : defaults.toBytes();
		return (int) Math.min(Integer.MAX_VALUE - 8, size);
	}

	private static @Nullable String blankToNull(@Nullable String value) {
		return (value == null || value.isBlank()) ? null : value;
	}

	/**
	 * The LLM API a route speaks.
	 */
	public enum Api {

		/** OpenAI Chat Completions ({@code POST .../chat/completions}), as vLLM, Ollama and Azure OpenAI serve it too. */
		OPENAI,

		/** Gemini ({@code :generateContent}, {@code :streamGenerateContent?alt=sse}), Google AI or Vertex AI. */
		GEMINI,

		/** Anthropic Messages ({@code POST .../v1/messages}). */
		ANTHROPIC

	}

	/**
	 * One route's arguments; those left unset come from {@code modelarmor.gateway.*}.
	 */
	public static class Config implements HasRouteId {

		/** The LLM API the route speaks. */
		private Api api = Api.OPENAI;

		/** The template of prompts; unset, the tenant's template or the client's ({@code modelarmor.template-id}). */
		private @Nullable String promptTemplate;

		/** The template of answers; unset, the tenant's template or the client's. */
		private @Nullable String responseTemplate;

		/** The route's tenant, whose templates ({@code modelarmor.tenants.*}) screen it. */
		private @Nullable String tenant;

		/** The request header that names the exchange's tenant on this route. */
		private @Nullable String tenantHeader;

		/** What a match does on this route. */
		private @Nullable MatchAction onMatch;

		/** Whether system and developer messages are screened on this route. */
		private @Nullable Boolean screenSystemMessages;

		/**
		 * Whether the route lets through what Model Armor could not screen (with a WARN line and a metric);
		 * fail-closed unless set ({@code modelarmor.screening.fail-open} opens every route).
		 */
		private @Nullable Boolean failOpen;

		/** The largest request body read on this route. */
		private @Nullable DataSize maxRequestSize;

		/** The largest answer read on this route. */
		private @Nullable DataSize maxResponseSize;

		private @Nullable String routeId;

		/**
		 * The LLM API the route speaks.
		 * @return the API, {@link Api#OPENAI} unless set
		 */
		public Api getApi() {
			return this.api;
		}

		/**
		 * Sets the LLM API the route speaks.
		 * @param api the API
		 * @return this config
		 */
		public Config setApi(Api api) {
			this.api = api;
			return this;
		}

		/**
		 * The template of prompts.
		 * @return the template id, or {@code null}
		 */
		public @Nullable String getPromptTemplate() {
			return this.promptTemplate;
		}

		/**
		 * Sets the template of prompts.
		 * @param promptTemplate the template id or full name
		 * @return this config
		 */
		public Config setPromptTemplate(@Nullable String promptTemplate) {
			this.promptTemplate = promptTemplate;
			return this;
		}

		/**
		 * The template of answers.
		 * @return the template id, or {@code null}
		 */
		public @Nullable String getResponseTemplate() {
			return this.responseTemplate;
		}

		/**
		 * Sets the template of answers.
		 * @param responseTemplate the template id or full name
		 * @return this config
		 */
		public Config setResponseTemplate(@Nullable String responseTemplate) {
			this.responseTemplate = responseTemplate;
			return this;
		}

		/**
		 * The route's tenant.
		 * @return the tenant, or {@code null}
		 */
		public @Nullable String getTenant() {
			return this.tenant;
		}

		/**
		 * Sets the route's tenant.
		 * @param tenant the tenant
		 * @return this config
		 */
		public Config setTenant(@Nullable String tenant) {
			this.tenant = tenant;
			return this;
		}

		/**
		 * The header that names the exchange's tenant.
		 * @return the header, or {@code null}
		 */
		public @Nullable String getTenantHeader() {
			return this.tenantHeader;
		}

		/**
		 * Sets the header that names the exchange's tenant; trust it only when the gateway, not the client,
		 * controls it.
		 * @param tenantHeader the header
		 * @return this config
		 */
		public Config setTenantHeader(@Nullable String tenantHeader) {
			this.tenantHeader = tenantHeader;
			return this;
		}

		/**
		 * What a match does on this route.
		 * @return the action, or {@code null} for {@code modelarmor.gateway.on-match}
		 */
		public @Nullable MatchAction getOnMatch() {
			return this.onMatch;
		}

		/**
		 * Sets what a match does on this route.
		 * @param onMatch the action
		 * @return this config
		 */
		public Config setOnMatch(@Nullable MatchAction onMatch) {
			this.onMatch = onMatch;
			return this;
		}

		/**
		 * Whether system messages are screened on this route.
		 * @return whether they are, or {@code null} for {@code modelarmor.gateway.screen-system-messages}
		 */
		public @Nullable Boolean getScreenSystemMessages() {
			return this.screenSystemMessages;
		}

		/**
		 * Sets whether system messages are screened on this route.
		 * @param screenSystemMessages whether they are
		 * @return this config
		 */
		public Config setScreenSystemMessages(@Nullable Boolean screenSystemMessages) {
			this.screenSystemMessages = screenSystemMessages;
			return this;
		}

		/**
		 * Whether the route lets through what Model Armor could not screen.
		 * @return whether it does, or {@code null} (fail closed)
		 */
		public @Nullable Boolean getFailOpen() {
			return this.failOpen;
		}

		/**
		 * Sets whether the route lets through what Model Armor could not screen.
		 * @param failOpen whether it does
		 * @return this config
		 */
		public Config setFailOpen(@Nullable Boolean failOpen) {
			this.failOpen = failOpen;
			return this;
		}

		/**
		 * The largest request body read on this route.
		 * @return the size, or {@code null} for {@code modelarmor.gateway.max-request-size}
		 */
		public @Nullable DataSize getMaxRequestSize() {
			return this.maxRequestSize;
		}

		/**
		 * Sets the largest request body read on this route.
		 * @param maxRequestSize the size
		 * @return this config
		 */
		public Config setMaxRequestSize(@Nullable DataSize maxRequestSize) {
			this.maxRequestSize = maxRequestSize;
			return this;
		}

		/**
		 * The largest answer read on this route.
		 * @return the size, or {@code null} for {@code modelarmor.gateway.max-response-size}
		 */
		public @Nullable DataSize getMaxResponseSize() {
			return this.maxResponseSize;
		}

		/**
		 * Sets the largest answer read on this route.
		 * @param maxResponseSize the size
		 * @return this config
		 */
		public Config setMaxResponseSize(@Nullable DataSize maxResponseSize) {
			this.maxResponseSize = maxResponseSize;
			return this;
		}

		@Override
		public @Nullable String getRouteId() {
			return this.routeId;
		}

		@Override
		public void setRouteId(@Nullable String routeId) {
			this.routeId = routeId;
		}

	}

}
