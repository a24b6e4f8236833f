package dev.modelarmor.ai.advisor;

import dev.modelarmor.ai.advisor.AdvisorScreening.Screened;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.ai.chat.client.ChatClientRequest;
import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.chat.client.advisor.api.StreamAdvisorChain;

/**
 * The advisor's streaming path ({@code adviseStream}): the prompt is screened, then the model's stream goes
 * through the stream mode's {@link StreamScreening}; or, with parallel prompt screening, the model's stream
 * starts at once and is held until the prompt's verdict. No thread waits for a Model Armor call or a retry
 * wait: every screening is a {@code screenAsync} future, and cancelling the stream cancels it.
 */
final class AdvisorStreamPath {

	private final AdvisorScreening screening;

	private final StreamScreening answers;

	AdvisorStreamPath(AdvisorScreening screening) {
		this.screening = screening;
		this.answers = StreamScreening.of(screening);
	}

	Flux<ChatClientResponse> advise(ChatClientRequest request, StreamAdvisorChain chain) {
		PromptVerdict verdict = new PromptVerdict();
		ChatClientRequest early = this.screening.parallel(request, verdict, chain.getStreamAdvisors());
		if (early != null) {
			return parallel(request, early, verdict, chain);
		}
		return prompt(request).flatMapMany((prompt) -> {
			if (prompt.refusal() != null) {
				return Flux.just(prompt.refusal());
			}
			return this.answers.screen(chain.nextStream(prompt.request()), prompt.text(), request.context());
		});
	}

	private Mono<Screened> prompt(ChatClientRequest request) {
		String text = AdvisorScreening.promptText(request);
		if (text.isBlank()) {
			return Mono.just(new Screened(request, null, null));
		}
		return Mono.fromFuture(() -> this.screening.screenPromptAsync(ModelArmorAdvisor.STREAM, request, text), false);
	}

	/**
	 * The model's stream starts at once, while the prompt is screened; every signal of it
	 * (chunks, its end, its failure) is held until the prompt's verdict. A passed prompt releases them to
	 * the stream mode's screening; a blocked one cancels the model's stream and answers with the refusal.
	 */
	private Flux<ChatClientResponse> parallel(ChatClientRequest request, ChatClientRequest early,
			PromptVerdict verdict, StreamAdvisorChain chain) {
		String text = AdvisorScreening.promptText(request);
		return Flux.defer(() -> {
			Mono<Screened> prompt = Mono
				.fromFuture(() -> this.screening.screenPromptAsync(ModelArmorAdvisor.STREAM, request, text), false)
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
