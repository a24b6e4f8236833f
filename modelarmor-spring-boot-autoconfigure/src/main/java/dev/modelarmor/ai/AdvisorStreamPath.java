package dev.modelarmor.ai;

import dev.modelarmor.ai.AdvisorScreening.Screened;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

import org.springframework.ai.chat.client.ChatClientRequest;
import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.chat.client.advisor.api.StreamAdvisorChain;

/**
 * The advisor's streaming path ({@code adviseStream}): the prompt is screened on the scheduler, then the
 * model's stream goes through the stream mode's {@link StreamScreening}; or, with parallel prompt
 * screening, the model's stream starts at once and is held until the prompt's verdict.
 */
final class AdvisorStreamPath {

	private final AdvisorScreening screening;

	private final StreamScreening answers;

	private final Scheduler scheduler;

	AdvisorStreamPath(AdvisorScreening screening, Scheduler scheduler) {
		this.screening = screening;
		this.answers = StreamScreening.of(screening, scheduler);
		this.scheduler = scheduler;
	}

	Flux<ChatClientResponse> advise(ChatClientRequest request, StreamAdvisorChain chain) {
		PromptVerdict verdict = new PromptVerdict();
		ChatClientRequest early = this.screening.parallel(request, verdict, chain.getStreamAdvisors());
		if (early != null) {
			return parallel(request, early, verdict, chain);
		}
		return Mono.fromCallable(() -> this.screening.screenPrompt(ModelArmorAdvisor.STREAM, request))
			.subscribeOn(this.scheduler)
			.flatMapMany((prompt) -> {
				if (prompt.refusal() != null) {
					return Flux.just(prompt.refusal());
				}
				return this.answers.screen(chain.nextStream(prompt.request()), prompt.text(), request.context());
			});
	}

	/**
	 * The model's stream starts at once, while the prompt is screened on the scheduler; every signal of it
	 * (chunks, its end, its failure) is held until the prompt's verdict. A passed prompt releases them to
	 * the stream mode's screening; a blocked one cancels the model's stream and answers with the refusal.
	 */
	private Flux<ChatClientResponse> parallel(ChatClientRequest request, ChatClientRequest early,
			PromptVerdict verdict, StreamAdvisorChain chain) {
		String text = AdvisorScreening.promptText(request);
		return Flux.defer(() -> {
			// Started from the scheduler: when every thread of the executor is busy, the prompt is screened on
			// the thread that starts it, which must not be the subscriber's (an event loop, perhaps).
			Mono<Screened> prompt = Mono
				.fromFuture(() -> this.screening.screenPromptAsync(ModelArmorAdvisor.STREAM, request, text))
				.subscribeOn(this.scheduler)
				.flatMap((screened) -> (screened.refusal() != null)
						? Mono.<Screened>error(new RefusedPrompt(screened.refusal())) : Mono.just(screened))
				.doOnSuccess((screened) -> verdict.decide(true))
				.doFinally((signal) -> verdict.decide(false))
				.cache();
			// Only a pass releases what is held; a refusal reaches the caller once, through the merge.
			Mono<Screened> passed = prompt.onErrorResume((ex) -> Mono.never());
			Flux<ChatClientResponse> held = chain.nextStream(early)
				.materialize()
				.delayUntil((signal) -> passed)
				.<ChatClientResponse>dematerialize();
			Flux<ChatClientResponse> released = Flux.merge(prompt.then(Mono.<ChatClientResponse>empty()), held);
			return this.answers.screen(released, text, request.context())
				.onErrorResume(RefusedPrompt.class, (refused) -> Mono.just(refused.response));
		});
	}

	/**
	 * A prompt refused while its model call ran: ends the held stream, cancelling the model's, and is
	 * turned into the refusal before it reaches the caller. Carries no content.
	 */
	private static final class RefusedPrompt extends RuntimeException {

		private static final long serialVersionUID = 1L;

		private final transient ChatClientResponse response;

		RefusedPrompt(ChatClientResponse response) {
			super("prompt refused", null, false, false);
			this.response = response;
		}

	}

}
