package dev.modelarmor.web;

import java.time.Duration;

import dev.modelarmor.screening.ModelArmorInputRejectedException;
import dev.modelarmor.screening.ModelArmorNotScreenedException;
import dev.modelarmor.screening.ModelArmorViolationException;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Renders guard outcomes that reach Spring MVC uncaught as {@code application/problem+json}, naming the
 * phase and the matched filters, never the content: a match as HTTP 400, screening that could not
 * complete (fail-closed) as HTTP 503, text that Model Armor refused as HTTP 413 when it was too large and
 * 400 otherwise. It runs last, so an application's own handlers win.
 */
@RestControllerAdvice
@Order(Ordered.LOWEST_PRECEDENCE)
public class ModelArmorExceptionHandler {

	private final String retryAfter;

	/**
	 * A handler whose 503 answers say when to try again.
	 * @param retryAfter the {@code Retry-After} of a 503, rounded up to whole seconds (the auto-configuration
	 * gives {@code modelarmor.circuit-breaker.wait-in-open-state}: when calls reach Model Armor again)
	 */
	public ModelArmorExceptionHandler(Duration retryAfter) {
		this.retryAfter = ModelArmorProblems.retryAfterSeconds(retryAfter);
	}

	/**
	 * A prompt or answer that Model Armor matched.
	 * @param ex the violation
	 * @return a 400 problem detail with {@code phase} and {@code filters}
	 */
	@ExceptionHandler
	public ProblemDetail handleViolation(ModelArmorViolationException ex) {
		return ModelArmorProblems.violation(ex);
	}

	/**
	 * A call blocked because screening could not complete.
	 * @param ex the failure
	 * @return a 503 problem detail with {@code phase}, and {@code Retry-After}
	 */
	@ExceptionHandler
	public ResponseEntity<ProblemDetail> handleNotScreened(ModelArmorNotScreenedException ex) {
		return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
			.header(HttpHeaders.RETRY_AFTER, this.retryAfter)
			.body(ModelArmorProblems.notScreened(ex));
	}

	/**
	 * A call blocked because Model Armor refused the text itself, or before any screening because its
	 * tenant has no template (the exception's cause is then a {@code ModelArmorUnknownTenantException}).
	 * @param ex the refusal
	 * @return a 413 problem detail when the text was too large, 400 otherwise, with {@code phase}; for an
	 * unknown tenant a 400 of its own, title "Unknown tenant", type {@code urn:modelarmor:problem:unknown-tenant}
	 */
	@ExceptionHandler
	public ProblemDetail handleInputRejected(ModelArmorInputRejectedException ex) {
		return ModelArmorProblems.inputRejected(ex);
	}

}
