package dev.modelarmor.web;

import java.time.Duration;

import dev.modelarmor.screening.ModelArmorInputRejectedException;
import dev.modelarmor.screening.ModelArmorNotScreenedException;
import dev.modelarmor.screening.ModelArmorViolationException;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Renders guard outcomes that reach Spring WebFlux uncaught (a {@code Mono} or {@code Flux} that ended with
 * the refusal before the response was committed) as {@code application/problem+json}, the same problem
 * details as {@link ModelArmorExceptionHandler} for Spring MVC: a match as HTTP 400, screening that could
 * not complete (fail-closed) as HTTP 503, text that Model Armor refused as HTTP 413 when it was too large
 * and 400 otherwise, naming the phase and the matched filters, never the content. A stream that is refused
 * after its first part was sent ends there: its status is already on the wire. The problem is
 * {@code application/problem+json} whatever the request accepts. It runs last, so an
 * application's own handlers win.
 */
@RestControllerAdvice
@Order(Ordered.LOWEST_PRECEDENCE)
public class ModelArmorWebFluxExceptionHandler {

	private final String retryAfter;

	/**
	 * A handler whose 503 answers say when to try again.
	 * @param retryAfter the {@code Retry-After} of a 503, rounded up to whole seconds (the auto-configuration
	 * gives {@code modelarmor.circuit-breaker.wait-in-open-state}: when calls reach Model Armor again)
	 */
	public ModelArmorWebFluxExceptionHandler(Duration retryAfter) {
		this.retryAfter = ModelArmorProblems.retryAfterSeconds(retryAfter);
	}

	/**
	 * A prompt or answer that Model Armor matched.
	 * @param ex the violation
	 * @return a 400 problem detail with {@code phase} and {@code filters}
	 */
	@ExceptionHandler
	public ResponseEntity<ProblemDetail> handleViolation(ModelArmorViolationException ex) {
		return problem(ModelArmorProblems.violation(ex));
	}

	/**
	 * A call blocked because screening could not complete.
	 * @param ex the failure
	 * @return a 503 problem detail with {@code phase}, and {@code Retry-After}
	 */
	@ExceptionHandler
	public ResponseEntity<ProblemDetail> handleNotScreened(ModelArmorNotScreenedException ex) {
		ProblemDetail problem = ModelArmorProblems.notScreened(ex);
		return ResponseEntity.status(problem.getStatus())
			.header(HttpHeaders.RETRY_AFTER, this.retryAfter)
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.body(problem);
	}

	/**
	 * A call blocked because Model Armor refused the text itself, or before any screening because its
	 * tenant has no template (the exception's cause is then a {@code ModelArmorUnknownTenantException}).
	 * @param ex the refusal
	 * @return a 413 problem detail when the text was too large, 400 otherwise, with {@code phase}; for an
	 * unknown tenant a 400 of its own, title "Unknown tenant", type {@code urn:modelarmor:problem:unknown-tenant}
	 */
	@ExceptionHandler
	public ResponseEntity<ProblemDetail> handleInputRejected(ModelArmorInputRejectedException ex) {
		return problem(ModelArmorProblems.inputRejected(ex));
	}

	/**
	 * Always {@code application/problem+json}: an event-stream endpoint, or a client that accepts only
	 * {@code text/event-stream} (a browser's {@code EventSource}), would otherwise get the problem as an event.
	 */
	private static ResponseEntity<ProblemDetail> problem(ProblemDetail problem) {
		return ResponseEntity.status(problem.getStatus()).contentType(MediaType.APPLICATION_PROBLEM_JSON).body(problem);
	}

}
