package dev.modelarmor.langchain4j;

import java.util.Objects;
import java.util.function.Consumer;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.service.tool.BeforeToolExecution;
import dev.modelarmor.screening.MatchAction;
import dev.modelarmor.screening.ModelArmorScreening;
import dev.modelarmor.screening.Phase;
import dev.modelarmor.screening.ScreeningDecision;
import dev.modelarmor.screening.ScreeningDecision.Refusal;
import dev.modelarmor.screening.ScreeningRequest;
import org.jspecify.annotations.Nullable;

/**
 * Screens the arguments of each tool call the model asks for before the tool runs, as model output: hand it to
 * {@code AiServices.builder(..).beforeToolExecution(..)} (or {@code TokenStream.beforeToolExecution(..)}). A
 * match, or screening that could not complete (fail-closed), throws the starter's refusal exception
 * ({@code ModelArmorViolationException} with phase {@code TOOL_CALL}, naming the filters, never the
 * arguments): the tool does not run and the AI service call ends with it. Arguments cannot be de-identified in
 * place, so {@link MatchAction#DEIDENTIFY} blocks as well. Made with the {@link ModelArmorToolOutputGuardrail}
 * (as the auto-configured one is), it also refuses a tool that guardrail withheld from the model, should the
 * model call it anyway. Unless given a template, it screens with the one the starter's tenant resolver chooses
 * for the call's tenant ({@link TenantSource}), and tells that guardrail so, for the tool call's result.
 */
public final class ModelArmorToolInputGuardrail implements Consumer<BeforeToolExecution> {

	private final ModelArmorScreening screening;

	private final @Nullable String template;

	private final MatchAction onMatch;

	private final @Nullable ModelArmorToolOutputGuardrail specifications;

	private final TenantSource tenants;

	/**
	 * Creates the guardrail.
	 * @param screening the starter's screening
	 * @param template the template to screen with, or {@code null} for {@code modelarmor.template-id}
	 * @param onMatch what a match does: {@link MatchAction#LOG_ONLY} lets the tool run
	 */
	public ModelArmorToolInputGuardrail(ModelArmorScreening screening, @Nullable String template,
			MatchAction onMatch) {
		this(screening, template, onMatch, null);
	}

	/**
	 * Creates the guardrail that also refuses a tool the other guardrail withheld from the model, should the
	 * model call it anyway.
	 * @param screening the starter's screening
	 * @param template the template to screen with, or {@code null} for {@code modelarmor.template-id}
	 * @param onMatch what a match does: {@link MatchAction#LOG_ONLY} lets the tool run
	 * @param specifications the guardrail that screens the tool specifications, or {@code null}
	 */
	public ModelArmorToolInputGuardrail(ModelArmorScreening screening, @Nullable String template,
			MatchAction onMatch, @Nullable ModelArmorToolOutputGuardrail specifications) {
		this(screening, template, onMatch, specifications, TenantSource.INVOCATION_PARAMETER);
	}

	/**
	 * Creates the guardrail that also refuses a tool the other guardrail withheld from the model, and tells it
	 * the tenant of each tool call, so that the call's result is screened with that tenant's template.
	 * @param screening the starter's screening
	 * @param template the template to screen with, or {@code null} for the one the tenant resolver chooses
	 * @param onMatch what a match does: {@link MatchAction#LOG_ONLY} lets the tool run
	 * @param specifications the guardrail that screens the tool specifications, or {@code null}
	 * @param tenants where a call's tenant is found
	 */
	public ModelArmorToolInputGuardrail(ModelArmorScreening screening, @Nullable String template,
			MatchAction onMatch, @Nullable ModelArmorToolOutputGuardrail specifications, TenantSource tenants) {
		this.screening = Objects.requireNonNull(screening, "screening must not be null");
		this.template = template;
		this.onMatch = Objects.requireNonNull(onMatch, "onMatch must not be null");
		this.specifications = specifications;
		this.tenants = Objects.requireNonNull(tenants, "tenants must not be null");
	}

	@Override
	public void accept(BeforeToolExecution execution) {
		ToolExecutionRequest request = execution.request();
		String name = (request.name() != null) ? request.name() : "";
		String caller = "tool " + Screenings.loggable(name);
		InvocationContext invocation = execution.invocationContext();
		Screenings.Bound bound = Screenings.bind(this.screening,
				ScreeningRequest.of(Phase.TOOL_CALL, caller, "").withTemplate(this.template),
				this.tenants.tenant(invocation), TenantSource.attributes(invocation));
		Refusal tenantRefused = bound.refusal();
		if (tenantRefused != null) {
			throw tenantRefused.exception();
		}
		String template = bound.template();
		if (this.specifications != null) {
			this.specifications.calledFor(request.id(), template);
		}
		Refusal withheld = (this.specifications != null && request.name() != null)
				? this.specifications.withheld(template, request.name()) : null;
		if (withheld != null) {
			throw withheld.exception();
		}
		String arguments = request.arguments();
		if (arguments == null || arguments.isBlank() || arguments.equals("{}")) {
			return;
		}
		ScreeningDecision decision = this.screening.screen(
				ScreeningRequest.of(Phase.TOOL_CALL, caller, name + "\n" + arguments)
					.withTemplate(template)
					.withOnMatch((this.onMatch == MatchAction.DEIDENTIFY) ? MatchAction.BLOCK : this.onMatch));
		if (decision instanceof Refusal refusal) {
			throw refusal.exception();
		}
	}

}
