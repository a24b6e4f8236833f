package dev.modelarmor.ai.tool;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import dev.modelarmor.ai.tool.ModelArmorToolOptions.OnBlockedTool;
import dev.modelarmor.screening.ModelArmorScreening;
import dev.modelarmor.screening.ModelArmorTenant;
import dev.modelarmor.screening.ModelArmorUnknownTenantException;
import dev.modelarmor.screening.Phase;
import dev.modelarmor.screening.ScreeningDecision;
import dev.modelarmor.screening.ScreeningDecision.Blocked;
import dev.modelarmor.screening.ScreeningDecision.Refusal;
import dev.modelarmor.screening.ScreeningDecision.Rejected;
import dev.modelarmor.screening.ScreeningRequest;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.ai.tool.definition.ToolDefinition;

/**
 * Screens the definitions of the tools offered to a model ({@link Phase#TOOL_DEFINITION}) and keeps the
 * tools that passed. A definition is screened once: its verdict is remembered by the SHA-256 of its name,
 * description and schema, so that a definition that changes (an MCP server that rewrites a description)
 * is screened again. Remembered are passes (unless screening fails open, when a pass may be an outage let
 * through), matches and input Model Armor refused; a definition that could not be screened is screened
 * again on the next call. The definitions not yet remembered are screened in parallel. Thread-safe.
 */
final class ModelArmorToolDefinitionScreening {

	/** How many definitions' verdicts are remembered; the least recently used is forgotten first. */
	static final int MAX_REMEMBERED = 1024;

	private static final Log logger = LogFactory.getLog(ModelArmorToolDefinitionScreening.class);

	private final ModelArmorScreening screening;

	private final @Nullable String template;

	private final ModelArmorToolOptions options;

	private final boolean failOpen;

	private final Map<String, ScreeningDecision> remembered = Collections
		.synchronizedMap(new LinkedHashMap<>(64, 0.75f, true) {

			private static final long serialVersionUID = 1L;

			@Override
			protected boolean removeEldestEntry(Map.Entry<String, ScreeningDecision> eldest) {
				return size() > MAX_REMEMBERED;
			}

		});

	ModelArmorToolDefinitionScreening(ModelArmorScreening screening, @Nullable String template,
			ModelArmorToolOptions options, boolean failOpen) {
		this.screening = screening;
		this.template = template;
		this.options = options;
		this.failOpen = failOpen;
	}

	/**
	 * The definitions the model may be offered, in their order.
	 * @param definitions every tool's definition
	 * @return those that passed
	 * @throws RuntimeException the first refusal's exception when {@link OnBlockedTool#THROW}
	 */
	List<ToolDefinition> offered(List<ToolDefinition> definitions) {
		return offered(definitions, Map.of());
	}

	/**
	 * The definitions the model may be offered to a call, screened with the template the resolver chooses for
	 * the tenant its tool context names ({@link ModelArmorTenant#KEY}) unless this screening names one: each
	 * tenant's template decides for its own calls, and its verdicts are remembered apart. A tenant the resolver
	 * refuses is offered no tool.
	 * @param definitions every tool's definition
	 * @param toolContext the call's tool context
	 * @return those that passed
	 * @throws RuntimeException the first refusal's exception when {@link OnBlockedTool#THROW}
	 */
	List<ToolDefinition> offered(List<ToolDefinition> definitions, Map<String, ? extends @Nullable Object> toolContext) {
		String template;
		try {
			template = this.screening.resolve(request(this.template, "tools", ""), ModelArmorTenant.of(toolContext),
					toolContext).template();
		}
		catch (ModelArmorUnknownTenantException ex) {
			Refusal refusal = (Refusal) this.screening.unknownTenant(request(this.template, "tools", ""));
			if (this.options.onBlock() == OnBlockedTool.THROW) {
				throw refusal.exception();
			}
			return List.of();
		}
		List<String> keys = new ArrayList<>(definitions.size());
		List<@Nullable CompletableFuture<ScreeningDecision>> screenings = new ArrayList<>(definitions.size());
		for (ToolDefinition definition : definitions) {
			// the template is configuration, never content: a verdict of one template is not another's
			String key = ((template != null) ? template : "") + '\u0000' + ModelArmorToolDefinitionText.key(definition);
			keys.add(key);
			screenings.add(this.remembered.containsKey(key) ? null
					: this.screening.screenAsync(request(template, definition)));
		}
		List<ToolDefinition> offered = new ArrayList<>(definitions.size());
		@Nullable Refusal firstRefusal = null;
		for (int i = 0; i < definitions.size(); i++) {
			ScreeningDecision decision = decision(template, definitions.get(i), keys.get(i), screenings.get(i));
			if (decision instanceof Refusal refusal) {
				firstRefusal = (firstRefusal != null) ? firstRefusal : refusal;
			}
			else {
				offered.add(definitions.get(i));
			}
		}
		if (firstRefusal != null && this.options.onBlock() == OnBlockedTool.THROW) {
			throw firstRefusal.exception();
		}
		return offered;
	}

	private ScreeningDecision decision(@Nullable String template, ToolDefinition definition, String key,
			@Nullable CompletableFuture<ScreeningDecision> screening) {
		if (screening == null) {
			ScreeningDecision known = this.remembered.get(key);
			if (known != null) {
				return known;
			}
			// forgotten since: screened again, on this thread
			screening = this.screening.screenAsync(request(template, definition));
		}
		ScreeningDecision decision = ModelArmorScreening.await(screening);
		if (rememberable(decision)) {
			this.remembered.put(key, decision);
		}
		if (decision instanceof Refusal refusal) {
			logger.warn(String.format("Model Armor withheld a tool from the model: tool=\"%s\" phase=%s outcome=%s%s",
					ModelArmorToolDefinitionText.loggable(definition.name()), Phase.TOOL_DEFINITION, outcome(refusal),
					(template != null) ? " template=" + ModelArmorToolDefinitionText.loggable(template) : ""));
		}
		return decision;
	}

	private boolean rememberable(ScreeningDecision decision) {
		if (decision instanceof Blocked || decision instanceof Rejected) {
			return true;
		}
		return !(decision instanceof Refusal) && !this.failOpen;
	}

	private ScreeningRequest request(@Nullable String template, ToolDefinition definition) {
		return request(template, "tool " + ModelArmorToolDefinitionText.loggable(definition.name()),
				ModelArmorToolDefinitionText.of(definition));
	}

	private ScreeningRequest request(@Nullable String template, String caller, String text) {
		// A definition is not rewritten: de-identified text there would change what the tool means.
		return ScreeningRequest.of(Phase.TOOL_DEFINITION, caller, text)
			.withTemplate(template)
			.withOnMatch(this.options.onMatch())
			.withReplaceable(false);
	}

	private static String outcome(Refusal refusal) {
		if (refusal instanceof Blocked blocked) {
			return "blocked filters=[" + String.join(",", blocked.result().matchedFilters()) + "]";
		}
		return (refusal instanceof Rejected) ? "rejected" : "not_screened";
	}

}
