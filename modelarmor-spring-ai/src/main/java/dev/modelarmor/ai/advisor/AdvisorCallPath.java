package dev.modelarmor.ai.advisor;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;

import dev.modelarmor.ai.advisor.AdvisorScreening.Screened;
import dev.modelarmor.internal.Futures;

import org.springframework.ai.chat.client.ChatClientRequest;
import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.chat.client.advisor.api.CallAdvisorChain;

/**
 * The advisor's blocking path ({@code adviseCall}): the prompt is screened, the chain runs, the answer is
 * screened; or, with parallel prompt screening, the chain runs while the prompt is screened and its answer
 * waits for the prompt's verdict. Kept apart from the stream strategies, which do the same with a
 * {@code Flux}.
 */
final class AdvisorCallPath {

	private final AdvisorScreening screening;

	AdvisorCallPath(AdvisorScreening screening) {
		this.screening = screening;
	}

	ChatClientResponse advise(ChatClientRequest request, CallAdvisorChain chain) {
		PromptVerdict verdict = new PromptVerdict();
		ChatClientRequest early = this.screening.parallel(request, verdict, chain.getCallAdvisors());
		if (early != null) {
			return parallel(request, early, verdict, chain);
		}
		Screened prompt = this.screening.screenPrompt(ModelArmorAdvisor.CALL, request);
		if (prompt.refusal() != null) {
			return prompt.refusal();
		}
		ChatClientResponse response = chain.nextCall(prompt.request());
		return this.screening.screenAnswer(ModelArmorAdvisor.CALL, response, prompt.text()).response();
	}

	/**
	 * The model runs on the caller's thread while the prompt is screened on the starter's executor; its
	 * answer is screened or discarded once the prompt's verdict is in. The blocking model call cannot be
	 * stopped from here, so a blocked prompt's answer is complete (its tokens spent) when it is discarded;
	 * its tools never run ({@link PromptVerdictToolCallingManager}).
	 */
	private ChatClientResponse parallel(ChatClientRequest request, ChatClientRequest early, PromptVerdict verdict,
			CallAdvisorChain chain) {
		CompletableFuture<Screened> prompt = screenAside(request, verdict);
		if (prompt.isDone() && verdictOf(prompt).refusal() != null) {
			// Screened before the model started (the scheduler refused the work): the model never starts.
			return Objects.requireNonNull(verdictOf(prompt).refusal());
		}
		ChatClientResponse response = null;
		RuntimeException failure = null;
		try {
			response = chain.nextCall(early);
		}
		catch (RuntimeException ex) {
			failure = ex;
		}
		Screened screened = verdictOf(prompt);
		if (screened.refusal() != null) {
			return screened.refusal();
		}
		if (failure != null) {
			throw failure;
		}
		return this.screening.screenAnswer(ModelArmorAdvisor.CALL, Objects.requireNonNull(response), screened.text())
			.response();
	}

	/**
	 * Screens the prompt on the starter's executor, deciding the verdict its tools wait for. When every
	 * thread of it is busy, the prompt is screened here and now, before the model starts: parallel
	 * screening falls back to serial rather than queue without bound.
	 */
	private CompletableFuture<Screened> screenAside(ChatClientRequest request, PromptVerdict verdict) {
		String text = AdvisorScreening.promptText(request);
		return this.screening.screenPromptAsync(ModelArmorAdvisor.CALL, request, text)
			.whenComplete((screened, failure) -> verdict.decide(failure == null && screened.refusal() == null));
	}

	/** The prompt's screening, or the exception it ended with (the refusal's, with on-block throw). */
	private static Screened verdictOf(CompletableFuture<Screened> prompt) {
		return Futures.join(prompt);
	}

}
