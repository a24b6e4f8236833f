package dev.modelarmor.web;

import java.net.URI;
import java.time.Duration;
import java.util.Locale;

import dev.modelarmor.screening.ModelArmorInputRejectedException;
import dev.modelarmor.screening.ModelArmorNotScreenedException;
import dev.modelarmor.screening.ModelArmorUnknownTenantException;
import dev.modelarmor.screening.ModelArmorViolationException;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;

/**
 * The problem details of guard outcomes, one place for Spring MVC's and WebFlux's handlers: they name the
 * phase and the matched filters, never the content.
 */
final class ModelArmorProblems {

	/** The problem type of a call refused for its tenant, which has no template: nothing reached Model Armor. */
	static final URI UNKNOWN_TENANT_TYPE = URI.create("urn:modelarmor:problem:unknown-tenant");

	private ModelArmorProblems() {
	}

	/**
	 * The {@code Retry-After} value of a 503: whole seconds, rounded up, at least one.
	 * @param retryAfter when to try again
	 * @return the header's value
	 */
	static String retryAfterSeconds(Duration retryAfter) {
		long seconds = retryAfter.getSeconds() + ((retryAfter.getNano() > 0) ? 1 : 0);
		return String.valueOf(Math.max(1, seconds));
	}

	static ProblemDetail violation(ModelArmorViolationException ex) {
		String phase = ex.phase().name().toLowerCase(Locale.ROOT);
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST,
				"The " + phase + " matched Model Armor filters: " + String.join(", ", ex.matchedFilters()));
		problem.setTitle("Blocked by Model Armor");
		problem.setProperty("phase", ex.phase().name());
		problem.setProperty("filters", ex.matchedFilters());
		return problem;
	}

	static ProblemDetail notScreened(ModelArmorNotScreenedException ex) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE,
				"Model Armor could not screen the " + ex.phase().name().toLowerCase(Locale.ROOT)
						+ "; the request was not processed.");
		problem.setTitle("Screening unavailable");
		problem.setProperty("phase", ex.phase().name());
		return problem;
	}

	static ProblemDetail inputRejected(ModelArmorInputRejectedException ex) {
		if (ex.getCause() instanceof ModelArmorUnknownTenantException) {
			return unknownTenant(ex);
		}
		String phase = ex.phase().name().toLowerCase(Locale.ROOT);
		ProblemDetail problem = ex.tooLarge()
				? ProblemDetail.forStatusAndDetail(HttpStatus.CONTENT_TOO_LARGE,
						"The " + phase + " is larger than Model Armor screens; the request was not processed.")
				: ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST,
						"Model Armor refused to screen the " + phase + "; the request was not processed.");
		problem.setTitle("Refused by Model Armor");
		problem.setProperty("phase", ex.phase().name());
		return problem;
	}

	/**
	 * A call refused before any screening: no template is declared for its tenant. The tenant's name is the
	 * request's own text, so the problem does not repeat it.
	 */
	private static ProblemDetail unknownTenant(ModelArmorInputRejectedException ex) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST,
				"No Model Armor template is declared for the request's tenant; nothing was screened and the "
						+ "request was not processed.");
		problem.setType(UNKNOWN_TENANT_TYPE);
		problem.setTitle("Unknown tenant");
		problem.setProperty("phase", ex.phase().name());
		return problem;
	}

}
