package dev.modelarmor.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import dev.modelarmor.client.ModelArmorApiException;
import dev.modelarmor.client.ModelArmorConfigurationException;
import dev.modelarmor.client.ModelArmorException;
import dev.modelarmor.client.ModelArmorOperations;
import dev.modelarmor.client.TemplateReference;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.event.ApplicationStartedEvent;
import org.springframework.context.ApplicationListener;

/**
 * Reads every template the application names, once, when it has started: the templates in use
 * ({@link TemplatesInUse}: the default template, the tenants', those of the Spring AI, LangChain4j and MCP
 * integrations) and those of {@code @ModelArmorGuarded} annotations. A template that does not
 * exist (404) or that the caller may not read (403) fails the start naming the template and where it is
 * named; any other failure (5xx, no answer) is one WARN line and the start goes on, for Model Armor being
 * unreachable at startup must not take the application down. The reads run in parallel, a few at a time,
 * and the check waits no longer than the client's retry deadline.
 *
 * <p>Run when the application has started rather than while the context refreshes, so that a context built
 * without {@code SpringApplication} (a test's {@code ApplicationContextRunner}) makes no call.
 */
final class ModelArmorTemplateCheck implements ApplicationListener<ApplicationStartedEvent> {

	static final String ENABLED_PROPERTY = "modelarmor.template-check.enabled";

	/** The most template reads in flight at once. */
	static final int PARALLEL_READS = 4;

	private static final Log logger = LogFactory.getLog(ModelArmorTemplateCheck.class);

	private final ModelArmorOperations operations;

	private final Supplier<Map<String, String>> templates;

	private final String location;

	private final Duration deadline;

	/**
	 * Creates the check.
	 * @param operations the client whose templates are read
	 * @param templates the template ids to read, each with where it is named, asked when the check runs
	 * @param location the client's location, for messages
	 * @param deadline the longest the check waits: the client's retry deadline
	 */
	ModelArmorTemplateCheck(ModelArmorOperations operations, Supplier<Map<String, String>> templates, String location,
			Duration deadline) {
		this.operations = operations;
		this.templates = templates;
		this.location = location;
		this.deadline = deadline;
	}

	@Override
	public void onApplicationEvent(ApplicationStartedEvent event) {
		ModelArmorConfigurationProblems.throwIfAny(check());
	}

	/**
	 * Reads every template once.
	 * @return a problem for each template that does not exist or that may not be read, in the order named
	 */
	List<ModelArmorConfigurationException> check() {
		Map<String, String> named = this.templates.get();
		if (named.isEmpty()) {
			return List.of();
		}
		List<String> ids = new ArrayList<>(named.keySet());
		List<String> places = new ArrayList<>(named.values());
		List<Callable<Void>> reads = ids.stream().<Callable<Void>>map((id) -> () -> {
			if (TemplateReference.isReference(id)) {
				// read where it lives: the reference's location, its regional endpoint
				TemplateReference reference = TemplateReference.parse(id);
				this.operations.withTemplate(reference).templates().get(reference.templateId());
			}
			else {
				this.operations.templates().get(id);
			}
			return null;
		}).toList();
		ExecutorService executor = Executors.newFixedThreadPool(Math.min(PARALLEL_READS, ids.size()), daemons());
		List<ModelArmorConfigurationException> problems = new ArrayList<>();
		try {
			List<Future<Void>> outcomes = executor.invokeAll(reads, this.deadline.toNanos(), TimeUnit.NANOSECONDS);
			for (int i = 0; i < ids.size(); i++) {
				ModelArmorConfigurationException problem = outcome(ids.get(i), places.get(i), outcomes.get(i));
				if (problem != null) {
					problems.add(problem);
				}
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			logger.warn("Model Armor template check interrupted, the start goes on: templates=" + ids.size());
		}
		finally {
			executor.shutdownNow();
		}
		return problems;
	}

	private @Nullable ModelArmorConfigurationException outcome(String id, String where,
			Future<Void> read) throws InterruptedException {
		try {
			read.get();
			return null;
		}
		catch (CancellationException ex) {
			warn(id, where, "no answer within the retry deadline (" + this.deadline.toMillis() + "ms)");
			return null;
		}
		catch (ExecutionException ex) {
			Throwable failure = ex.getCause();
			if (failure instanceof ModelArmorApiException api && api.statusCode() == 404) {
				String location = TemplateReference.isReference(id) ? TemplateReference.parse(id).location()
						: this.location;
				String templateId = TemplateReference.isReference(id) ? TemplateReference.parse(id).templateId() : id;
				return new ModelArmorConfigurationException(where, "names the template '" + templateId
						+ "', which does not exist in location " + location,
						"Create the template " + templateId + " in location " + location
								+ " (gcloud model-armor templates "
								+ "create), or name one that exists; " + ENABLED_PROPERTY + "=false skips this check");
			}
			if (failure instanceof ModelArmorApiException api && api.statusCode() == 403) {
				return new ModelArmorConfigurationException(where, "names the template '" + id
						+ "', which the application's credentials may not read (HTTP 403)",
						"Grant the application's principal the permission modelarmor.templates.get on the template "
								+ id + " (with the permissions to sanitize, e.g. the role roles/modelarmor.user), "
								+ "or set " + ENABLED_PROPERTY + "=false");
			}
			String reason = (failure instanceof ModelArmorApiException api) ? "HTTP " + api.statusCode()
					: (failure instanceof ModelArmorException) ? String.valueOf(failure.getMessage()).replace('"', '\'')
							: (failure != null) ? failure.getClass().getSimpleName() : "unknown";
			warn(id, where, reason);
			return null;
		}
	}

	private static void warn(String id, String where, String reason) {
		logger.warn("Model Armor template could not be checked, the start goes on: template=" + id + " namedBy=\""
				+ where + "\" reason=\"" + reason + "\"");
	}

	private static ThreadFactory daemons() {
		AtomicInteger count = new AtomicInteger();
		return (task) -> {
			Thread thread = new Thread(task, "modelarmor-template-check-" + count.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		};
	}

	/**
	 * The templates an application names, each once with the first place that names it.
	 * @param inUse the templates the properties name (the client's own, the tenants', the integrations'), by
	 * template, each with the property naming it
	 * @param annotated the templates of {@code @ModelArmorGuarded} annotations, by the method naming each
	 * @return where each template is named, by template id
	 */
	static Map<String, String> named(TemplatesInUse inUse, Map<String, String> annotated) {
		Map<String, String> named = new LinkedHashMap<>(inUse.namedBy());
		new TreeMap<>(annotated).forEach((id, method) -> {
			if (id != null && !id.isBlank()) {
				named.putIfAbsent(id.strip(), "@ModelArmorGuarded on " + method);
			}
		});
		return named;
	}

}
