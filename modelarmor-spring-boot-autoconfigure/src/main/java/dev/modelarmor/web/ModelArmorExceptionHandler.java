package dev.modelarmor.web;

import dev.modelarmor.screening.ModelArmorInputRejectedException;
import dev.modelarmor.screening.ModelArmorNotScreenedException;
import dev.modelarmor.screening.ModelArmorViolationException;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.ProblemDetail;
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
	 * @return a 503 problem detail with {@code phase}
	 */
	@ExceptionHandler
	public ProblemDetail handleNotScreened(ModelArmorNotScreenedException ex) {
		return ModelArmorProblems.notScreened(ex);
	}

	/**
	 * A call blocked because Model Armor refused the text itself.
	 * @param ex the refusal
	 * @return a 413 problem detail when the text was too large, 400 otherwise, with {@code phase}
	 */
	@ExceptionHandler
	public ProblemDetail handleInputRejected(ModelArmorInputRejectedException ex) {
		return ModelArmorProblems.inputRejected(ex);
	}

}
