package dev.modelarmor.gateway.internal;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import dev.modelarmor.gateway.internal.ApiMapper.Prompt;
import dev.modelarmor.screening.ModelArmorScreening;
import dev.modelarmor.screening.ModelArmorTenant;
import dev.modelarmor.screening.ScreeningDecision;
import dev.modelarmor.screening.ScreeningDecision.Deidentified;
import dev.modelarmor.screening.ScreeningDecision.NotScreened;
import dev.modelarmor.screening.ScreeningDecision.Refusal;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.util.context.ContextView;

import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.NettyWriteResponseFilter;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.core.Ordered;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.util.StringUtils;
import org.springframework.web.server.ServerWebExchange;

/**
 * The {@code ModelArmor} filter of one route. A {@code POST} to the route's API endpoint is read whole
 * (up to its limit), its untrusted parts screened before anything is forwarded, and forwarded as screened
 * (de-identified where the route says so); the model's answer, whole or streamed, is screened before the
 * client gets it. Anything else on the route passes untouched. It runs before the gateway writes the
 * answer (order {@code NettyWriteResponseFilter.WRITE_RESPONSE_FILTER_ORDER - 1}), whatever the route's
 * filter list, so that it sees the answer before the client does.
 */
public final class ScreeningGatewayFilter implements GatewayFilter, Ordered {

	/** The route metadata key that names the route's tenant. */
	public static final String TENANT_METADATA = ModelArmorTenant.KEY;

	private final Supplier<ModelArmorScreening> screening;

	private final RouteSettings settings;

	private final @Nullable String tenant;

	private final @Nullable String tenantHeader;

	private final GatewayOutcomes outcomes;

	/**
	 * Creates the filter of one route.
	 * @param screening the starter's screening, looked up at the first exchange
	 * @param settings the route's settings
	 * @param tenant the route's tenant, or {@code null}
	 * @param tenantHeader the header that names an exchange's tenant on this route, or {@code null}
	 * @param outcomes where outcomes are counted
	 */
	public ScreeningGatewayFilter(Supplier<ModelArmorScreening> screening, RouteSettings settings,
			@Nullable String tenant, @Nullable String tenantHeader, GatewayOutcomes outcomes) {
		this.screening = screening;
		this.settings = settings;
		this.tenant = tenant;
		this.tenantHeader = tenantHeader;
		this.outcomes = outcomes;
	}

	@Override
	public int getOrder() {
		return NettyWriteResponseFilter.WRITE_RESPONSE_FILTER_ORDER - 1;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
		ServerHttpRequest request = exchange.getRequest();
		ApiMapper mapper = this.settings.mapper();
		if (!HttpMethod.POST.equals(request.getMethod()) || !mapper.screens(request.getPath().value())) {
			return chain.filter(exchange);
		}
		Route route = exchange.getAttribute(ServerWebExchangeUtils.GATEWAY_ROUTE_ATTR);
		RouteSettings settings = (route != null) ? this.settings.withRouteId(route.getId()) : this.settings;
		String encoding = request.getHeaders().getFirst(HttpHeaders.CONTENT_ENCODING);
		if (encoding != null && !encoding.equalsIgnoreCase("identity")) {
			return refuse(exchange, settings, Failure.UNSUPPORTED_ENCODING, GatewayOutcomes.BAD_REQUEST,
					"The request body is compressed (Content-Encoding), which the gateway cannot screen");
		}
		return DataBufferUtils.join(request.getBody(), settings.maxRequestBytes())
			.map(ScreeningGatewayFilter::bytes)
			.defaultIfEmpty(new byte[0])
			.flatMap((body) -> Mono.deferContextual((context) -> screenRequest(exchange, chain, settings, body,
					tenant(exchange, route, context))))
			.onErrorResume(DataBufferLimitException.class,
					(ex) -> refuse(exchange, settings, Failure.REQUEST_TOO_LARGE, GatewayOutcomes.BAD_REQUEST,
							"The request body is larger than the " + settings.maxRequestBytes()
									+ " bytes the gateway screens"));
	}

	private @Nullable String tenant(ServerWebExchange exchange, @Nullable Route route, ContextView context) {
		if (StringUtils.hasText(this.tenant)) {
			return this.tenant;
		}
		Object fromRoute = (route != null) ? route.getMetadata().get(TENANT_METADATA) : null;
		if (fromRoute != null) {
			return fromRoute.toString();
		}
		if (this.tenantHeader != null) {
			String fromHeader = exchange.getRequest().getHeaders().getFirst(this.tenantHeader);
			if (fromHeader != null) {
				return fromHeader;
			}
		}
		return context.getOrEmpty(ModelArmorTenant.KEY).map(Object::toString).orElse(null);
	}

	private Mono<Void> screenRequest(ServerWebExchange exchange, GatewayFilterChain chain, RouteSettings settings,
			byte[] body, @Nullable String tenant) {
		ApiMapper mapper = settings.mapper();
		tools.jackson.databind.node.ObjectNode json;
		Prompt prompt;
		try {
			json = Json.object(body, "The request body");
			prompt = mapper.prompt(json, settings.screenSystem());
		}
		catch (BadInput ex) {
			return refuse(exchange, settings, Failure.INVALID_REQUEST, GatewayOutcomes.BAD_REQUEST, ex.reason());
		}
		RouteScreening screening = new RouteScreening(this.screening.get(), settings, tenant);
		List<PromptPart> parts = screening.grouped(prompt.parts());
		CompletableFuture<List<ScreeningDecision>> decided = screening.screenPrompt(parts);
		return Mono.fromFuture(() -> decided, false).flatMap((decisions) -> {
			if (decisions.size() == 1 && decisions.get(0) instanceof Refusal refusal) {
				return refusePrompt(exchange, settings, refusal);
			}
			for (int i = 0; i < decisions.size(); i++) {
				if (decisions.get(i) instanceof Deidentified deidentified
						&& parts.get(i) instanceof PromptPart.Text text && text.replaceable()) {
					text.replace(deidentified.text());
				}
			}
			return forward(exchange, chain, screening, Json.bytes(json), prompt.userText());
		});
	}

	private Mono<Void> forward(ServerWebExchange exchange, GatewayFilterChain chain, RouteScreening screening,
			byte[] body, @Nullable String userText) {
		ServerHttpRequest headed = exchange.getRequest().mutate().headers((headers) -> {
			headers.setContentLength(body.length);
			headers.remove(HttpHeaders.TRANSFER_ENCODING);
			// the answer must come uncompressed to be screened
			headers.remove(HttpHeaders.ACCEPT_ENCODING);
		}).build();
		ServerHttpRequest request = new ServerHttpRequestDecorator(headed) {
			@Override
			public Flux<DataBuffer> getBody() {
				return Flux.defer(() -> Flux.just(exchange.getResponse().bufferFactory().wrap(body)));
			}
		};
		ScreenedResponse response = new ScreenedResponse(exchange.getResponse(), screening, this.outcomes, userText);
		return chain.filter(exchange.mutate().request(request).response(response).build());
	}

	private Mono<Void> refusePrompt(ServerWebExchange exchange, RouteSettings settings, Refusal refusal) {
		if (refusal instanceof NotScreened) {
			this.outcomes.record(settings, GatewayOutcomes.NOT_SCREENED, refusal);
			return write(exchange.getResponse(), settings, Failure.NOT_SCREENED,
					"Model Armor could not screen the request; try again later");
		}
		this.outcomes.record(settings, GatewayOutcomes.PROMPT_REFUSED, refusal);
		return write(exchange.getResponse(), settings, Failure.PROMPT_REFUSED, Refusals.message(refusal));
	}

	private Mono<Void> refuse(ServerWebExchange exchange, RouteSettings settings, Failure failure, String outcome,
			String message) {
		this.outcomes.record(settings, outcome, null);
		return write(exchange.getResponse(), settings, failure, message);
	}

	/** Answers in the API's error shape in place of the model. */
	static Mono<Void> write(ServerHttpResponse response, RouteSettings settings, Failure failure, String message) {
		byte[] body = Json.bytes(settings.mapper().error(failure, message));
		response.setStatusCode(HttpStatus.valueOf(failure.status()));
		HttpHeaders headers = response.getHeaders();
		headers.remove(HttpHeaders.CONTENT_ENCODING);
		headers.remove(HttpHeaders.TRANSFER_ENCODING);
		headers.setContentType(MediaType.APPLICATION_JSON);
		headers.setContentLength(body.length);
		if (failure == Failure.NOT_SCREENED) {
			headers.set(HttpHeaders.RETRY_AFTER, Long.toString(settings.retryAfterSeconds()));
		}
		return response.writeWith(Mono.fromSupplier(() -> response.bufferFactory().wrap(body)));
	}

	static byte[] bytes(DataBuffer buffer) {
		try {
			byte[] bytes = new byte[buffer.readableByteCount()];
			buffer.read(bytes);
			return bytes;
		}
		finally {
			DataBufferUtils.release(buffer);
		}
	}

}
