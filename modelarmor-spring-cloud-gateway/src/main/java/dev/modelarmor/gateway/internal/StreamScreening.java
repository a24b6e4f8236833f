package dev.modelarmor.gateway.internal;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import dev.modelarmor.gateway.internal.ApiMapper.StreamEnding;
import dev.modelarmor.screening.ScreeningDecision.NotScreened;
import dev.modelarmor.screening.ScreeningDecision.Refusal;
import dev.modelarmor.screening.internal.stream.StreamSegments;
import dev.modelarmor.screening.internal.stream.StreamSegmentsFlux;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;

/**
 * A streamed answer (server-sent events) screened in the starter's stream segments: the events are read
 * from the bytes whatever their chunks, each event's text goes into the segments of its generation, and an
 * event is released, as it came, only once every segment that holds its text passed (a de-identified one
 * written anew). A refusal ends the stream in the API's filtered shape after what was released; a stream
 * that cannot be screened (an event too large, not the API's JSON, the model breaking off, too much held)
 * ends in the API's error shape. Nothing unscreened is ever released, and no more than the answer's limit
 * is held.
 */
final class StreamScreening {

	private final RouteScreening screening;

	private final GatewayOutcomes outcomes;

	StreamScreening(RouteScreening screening, GatewayOutcomes outcomes) {
		this.screening = screening;
		this.outcomes = outcomes;
	}

	/**
	 * Screens one stream.
	 * @param body the model's bytes
	 * @param userText the prompt the answer replies to, sent along with each segment
	 * @return the events to send the client, each its own string
	 */
	Flux<String> screen(Flux<DataBuffer> body, @Nullable String userText) {
		return Flux.defer(() -> {
			RouteSettings route = this.screening.route();
			ApiMapper mapper = route.mapper();
			StreamEnding ending = mapper.ending();
			SseSplitter splitter = new SseSplitter(route.maxEventBytes());
			EventGroup.Grouper grouper = new EventGroup.Grouper();
			AtomicLong held = new AtomicLong();
			AtomicBoolean ended = new AtomicBoolean();
			Flux<StreamEvent> events = body.map(StreamScreening::bytes)
				.concatMapIterable(splitter::accept)
				.concatWith(Flux.defer(() -> Flux.fromIterable(splitter.finish())))
				.map((raw) -> mapper.event(SseEvent.parse(raw)))
				.doOnNext((event) -> {
					if (held.addAndGet(event.size()) > route.maxResponseBytes()) {
						throw new BadInput("the streamed answer held back more than " + route.maxResponseBytes()
								+ " bytes");
					}
				});
			Flux<EventGroup> groups = events.concatMapIterable(grouper::accept)
				.concatWith(Flux.defer(() -> Flux.fromIterable(grouper.finish())));
			StreamSegments<EventGroup> segments = new StreamSegments<>(route.firstSegment(), route.segment(),
					route.overlap(), EventGroup.Chunks.INSTANCE, (text) -> this.screening.screenAnswer(text, userText),
					(toolCalls) -> this.screening.screenToolCalls(toolCalls, userText));
			return StreamSegmentsFlux.steps(groups, segments).concatMapIterable((step) -> {
				List<String> out = new ArrayList<>();
				for (EventGroup group : step.emit()) {
					for (StreamEvent event : group.events()) {
						ending.released(event);
						held.addAndGet(-event.size());
						out.add(event.wire());
					}
				}
				Refusal refusal = step.refusal();
				if (refusal != null) {
					ended.set(true);
					out.addAll(end(ending, refusal));
				}
				return out;
			}).onErrorResume((ex) -> {
				ended.set(true);
				return Flux.fromIterable(failed(ending, ex));
			}).doOnComplete(() -> {
				if (!ended.get()) {
					this.outcomes.record(route, GatewayOutcomes.PASSED, null);
				}
			});
		});
	}

	private List<String> end(StreamEnding ending, Refusal refusal) {
		if (refusal instanceof NotScreened) {
			this.outcomes.record(this.screening.route(), GatewayOutcomes.NOT_SCREENED, refusal);
			return ending.failed(Failure.NOT_SCREENED, "Model Armor could not screen the answer");
		}
		this.outcomes.record(this.screening.route(), GatewayOutcomes.ANSWER_REFUSED, refusal);
		return ending.refused();
	}

	private List<String> failed(StreamEnding ending, Throwable ex) {
		String message = (ex instanceof BadInput bad) ? "The model's streamed answer could not be screened: "
				+ bad.reason() : "The model's streamed answer broke off";
		this.outcomes.record(this.screening.route(), GatewayOutcomes.BAD_ANSWER, null);
		return ending.failed(Failure.BAD_ANSWER, message);
	}

	private static byte[] bytes(DataBuffer buffer) {
		try {
			byte[] bytes = new byte[buffer.readableByteCount()];
			buffer.read(bytes);
			return bytes;
		}
		finally {
			DataBufferUtils.release(buffer);
		}
	}

	static byte[] utf8(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

}
