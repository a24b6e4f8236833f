package dev.modelarmor.gateway.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.modelarmor.screening.ScreeningDecision;
import dev.modelarmor.screening.ScreeningDecision.Deidentified;
import dev.modelarmor.screening.ScreeningDecision.NotScreened;
import dev.modelarmor.screening.ScreeningDecision.Refusal;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;

/**
 * The model's answer on its way to the client, screened: a streamed one ({@code text/event-stream}) event
 * by event in windows, a whole one read (up to its limit) and screened, de-identified in place, or
 * answered with the API's filtered answer. An answer that is not a success passes as it came; one that
 * cannot be screened (compressed, not JSON) is refused with HTTP 502.
 */
final class ScreenedResponse extends ServerHttpResponseDecorator {

	private final RouteScreening screening;

	private final GatewayOutcomes outcomes;

	private final @Nullable String userText;

	ScreenedResponse(ServerHttpResponse delegate, RouteScreening screening, GatewayOutcomes outcomes,
			@Nullable String userText) {
		super(delegate);
		this.screening = screening;
		this.outcomes = outcomes;
		this.userText = userText;
	}

	@Override
	public Mono<Void> writeWith(Publisher<? extends DataBuffer> body) {
		Mode mode = mode();
		return switch (mode) {
			case UNTOUCHED -> super.writeWith(body);
			case STREAM -> super.writeAndFlushWith(stream(Flux.from(body)).map(Flux::just));
			case WHOLE -> whole(Flux.from(body));
			case UNSCREENABLE -> unscreenable(Flux.from(body));
		};
	}

	@Override
	public Mono<Void> writeAndFlushWith(Publisher<? extends Publisher<? extends DataBuffer>> body) {
		Flux<DataBuffer> flat = Flux.from(body).concatMap(Flux::from);
		Mode mode = mode();
		return switch (mode) {
			case UNTOUCHED -> super.writeAndFlushWith(body);
			case STREAM -> super.writeAndFlushWith(stream(flat).map(Flux::just));
			case WHOLE -> whole(flat);
			case UNSCREENABLE -> unscreenable(flat);
		};
	}

	private Mode mode() {
		HttpStatusCode status = getStatusCode();
		if (status != null && !status.is2xxSuccessful()) {
			return Mode.UNTOUCHED;
		}
		HttpHeaders headers = getHeaders();
		String encoding = headers.getFirst(HttpHeaders.CONTENT_ENCODING);
		if (encoding != null && !encoding.equalsIgnoreCase("identity")) {
			return Mode.UNSCREENABLE;
		}
		MediaType type;
		try {
			type = headers.getContentType();
		}
		catch (RuntimeException ex) {
			return Mode.UNSCREENABLE;
		}
		if (type != null && MediaType.TEXT_EVENT_STREAM.isCompatibleWith(type)) {
			return Mode.STREAM;
		}
		return (type == null || type.getSubtype().equals("json") || type.getSubtype().endsWith("+json"))
				? Mode.WHOLE : Mode.UNSCREENABLE;
	}

	private Flux<DataBuffer> stream(Flux<DataBuffer> body) {
		HttpHeaders headers = getHeaders();
		headers.remove(HttpHeaders.CONTENT_LENGTH);
		StreamScreening streams = new StreamScreening(this.screening, this.outcomes);
		return streams.screen(body, this.userText)
			.map((event) -> bufferFactory().wrap(StreamScreening.utf8(event)));
	}

	private Mono<Void> whole(Flux<DataBuffer> body) {
		RouteSettings route = this.screening.route();
		return DataBufferUtils.join(body, route.maxResponseBytes())
			.map(ScreeningGatewayFilter::bytes)
			.defaultIfEmpty(new byte[0])
			.flatMap(this::screenWhole)
			.onErrorResume(DataBufferLimitException.class, (ex) -> fail(Failure.BAD_ANSWER,
					"The model's answer is larger than the " + route.maxResponseBytes() + " bytes the gateway screens"));
	}

	private Mono<Void> screenWhole(byte[] body) {
		RouteSettings route = this.screening.route();
		ObjectNode answer;
		List<AnswerPart> parts;
		try {
			answer = Json.object(body, "The model's answer");
			parts = route.mapper().answer(answer);
		}
		catch (BadInput ex) {
			return fail(Failure.BAD_ANSWER, "The model's answer could not be screened: " + ex.getMessage());
		}
		List<CompletableFuture<ScreeningDecision>> decisions = new ArrayList<>();
		List<AnswerPart> rewritable = new ArrayList<>();
		for (AnswerPart part : parts) {
			String text = part.text();
			if (!text.isBlank()) {
				decisions.add(this.screening.screenAnswer(text, this.userText));
				rewritable.add(part);
			}
		}
		for (AnswerPart part : parts) {
			if (!part.toolCalls().isBlank()) {
				decisions.add(this.screening.screenToolCalls(part.toolCalls(), this.userText));
			}
		}
		CompletableFuture<List<ScreeningDecision>> decided = ScreeningDecision.firstRefusalOrAll(decisions);
		return Mono.fromFuture(() -> decided, false).flatMap((made) -> {
			if (made.size() == 1 && made.get(0) instanceof Refusal refusal) {
				if (refusal instanceof NotScreened) {
					this.outcomes.record(route, GatewayOutcomes.NOT_SCREENED, refusal);
					return ScreeningGatewayFilter.write(getDelegate(), route, Failure.NOT_SCREENED,
							"Model Armor could not screen the answer; try again later");
				}
				this.outcomes.record(route, GatewayOutcomes.ANSWER_REFUSED, refusal);
				return send(Json.bytes(route.mapper().refusedAnswer(answer)));
			}
			boolean rewritten = false;
			for (int i = 0; i < rewritable.size(); i++) {
				if (made.get(i) instanceof Deidentified deidentified) {
					rewritable.get(i).replace(deidentified.text());
					rewritten = true;
				}
			}
			this.outcomes.record(route, rewritten ? GatewayOutcomes.DEIDENTIFIED : GatewayOutcomes.PASSED, null);
			return send(Json.bytes(answer));
		});
	}

	private Mono<Void> send(byte[] body) {
		HttpHeaders headers = getHeaders();
		headers.remove(HttpHeaders.TRANSFER_ENCODING);
		headers.setContentLength(body.length);
		return getDelegate().writeWith(Mono.fromSupplier(() -> bufferFactory().wrap(body)));
	}

	private Mono<Void> unscreenable(Flux<DataBuffer> body) {
		return body.doOnNext(DataBufferUtils::release)
			.then(fail(Failure.BAD_ANSWER,
					"The model's answer is compressed or not JSON, which the gateway cannot screen"));
	}

	private Mono<Void> fail(Failure failure, String message) {
		this.outcomes.record(this.screening.route(), GatewayOutcomes.BAD_ANSWER, null);
		return ScreeningGatewayFilter.write(getDelegate(), this.screening.route(), failure, message);
	}

	private enum Mode {

		UNTOUCHED, STREAM, WHOLE, UNSCREENABLE

	}

}
