package dev.modelarmor.test;

import java.util.function.Predicate;

import dev.modelarmor.client.SanitizationResult;
import dev.modelarmor.test.ReceivedRequest.Operation;
import org.jspecify.annotations.Nullable;

/**
 * A programmed answer of the stand-in: the result for the requests of one operation (in one template, or
 * any) whose text the predicate accepts.
 *
 * @param operation the operation the rule applies to
 * @param template the template id the rule applies to (in any location), or a template with its location
 * ({@code locations/{location}/templates/{id}}), or {@code null} for any
 * @param text accepts the screened text
 * @param result the answer
 */
record VerdictRule(Operation operation, @Nullable String template, Predicate<String> text,
		SanitizationResult result) {

	boolean appliesTo(ReceivedRequest request) {
		return request.operation() == this.operation
				&& (this.template == null || this.template.equals(request.template())
						|| this.template.equals("locations/" + request.location() + "/templates/" + request.template()))
				&& this.text.test(request.text());
	}

}
