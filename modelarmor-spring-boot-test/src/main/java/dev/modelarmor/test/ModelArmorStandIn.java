package dev.modelarmor.test;

import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Pattern;

import dev.modelarmor.client.InvocationResult;
import dev.modelarmor.client.SanitizationResult;
import dev.modelarmor.client.TemplateReference;
import dev.modelarmor.test.FaultQueue.Kind;
import dev.modelarmor.test.FaultQueue.QueuedFault;
import dev.modelarmor.test.ReceivedRequest.Operation;
import org.jspecify.annotations.Nullable;

/**
 * An in-process <b>stand-in</b> for the Model Armor REST API, <b>not Model Armor</b>: an HTTP server on
 * loopback that answers {@code sanitizeUserPrompt} and {@code sanitizeModelResponse} at the API's real
 * paths with the API's real JSON, so that an application's real {@code ModelArmorTemplate} (its HTTP
 * client, retries, guard and advisor) runs against it. With
 * {@link AutoConfigureModelArmorStandIn @AutoConfigureModelArmorStandIn} it is a bean the application's
 * client points at; inject it to program a test:
 *
 * <pre>{@code
 * modelArmor.onPrompt().containing("forecast").match("rai");       // a verdict
 * modelArmor.failWith(503).times(2);                                // a fault
 * assertThat(modelArmor.receivedPrompts()).containsExactly(...);    // what it received
 * }</pre>
 *
 * <p><b>Verdicts.</b> A request gets the answer of the newest programmed rule that applies to it
 * ({@link #onPrompt()}, {@link #onResponse()}); without one, the default rules decide, for prompts and
 * responses alike:
 * <ul>
 * <li>{@code pi_and_jailbreak} matches text that contains, in any case, {@code ignore previous
 * instructions}, {@code ignore all previous instructions}, {@code developer mode} or
 * {@code jailbreak};</li>
 * <li>{@code sdp} matches card numbers (13 to 16 digits, spaces or dashes allowed) and e-mail addresses,
 * and de-identifies them to {@code [CREDIT_CARD_NUMBER]} and {@code [EMAIL_ADDRESS]};</li>
 * <li>{@code malicious_uris} matches {@code http://testsafebrowsing.appspot.com/s/malware.html} and
 * {@code http://malware.example/};</li>
 * <li>anything else is clean.</li>
 * </ul>
 * The starter screens long text in windows: a rule then applies to each window's request on its own.
 *
 * <p><b>Templates.</b> Every template exists until {@link #onlyTemplates(String...)} names the ones that
 * do: a template read ({@code GET .../templates/{template}}, what {@code templates().get(..)}, the health
 * indicator and a startup check of templates send) answers the template, and a read of or a sanitize call
 * to any other template answers {@code 404 NOT_FOUND}.
 *
 * <p><b>Faults</b> ({@link #failWith(int)}, {@link #delay(Duration)}, {@link #stall()}) are used before
 * any verdict, in the order they were added, one use per request.
 *
 * <p><b>Reset.</b> In a Spring test the stand-in is reset before and after each test method: programmed
 * rules, faults and received requests are forgotten, held requests end. Tests that share an application
 * context share its stand-in, so they should not run in parallel.
 *
 * <p>Thread-safe. It never logs, and keeps at most the last 10,000 requests.
 */
public final class ModelArmorStandIn implements AutoCloseable {

	private final StandInHandler handler = new StandInHandler();

	private final StandInServer server;

	private ModelArmorStandIn() {
		this.server = StandInServer.start(this.handler);
	}

	/**
	 * Starts a stand-in on a free port of the loopback address, with the default rules. Outside a Spring
	 * test, point a client at {@link #url()} and close the stand-in when done.
	 * @return the running stand-in
	 * @throws UncheckedIOException when no server socket could be opened
	 */
	public static ModelArmorStandIn start() {
		return new ModelArmorStandIn();
	}

	/**
	 * The base URL to use as {@code modelarmor.endpoint}.
	 * @return e.g. {@code http://127.0.0.1:41234}
	 */
	public String url() {
		return this.server.url();
	}

	/**
	 * Programs the answers to prompts ({@code sanitizeUserPrompt}).
	 * @return a choice of which prompts, then of the answer
	 */
	public TextSelector onPrompt() {
		return new TextSelector(Operation.SANITIZE_USER_PROMPT, null);
	}

	/**
	 * Programs the answers to model responses ({@code sanitizeModelResponse}).
	 * @return a choice of which responses, then of the answer
	 */
	public TextSelector onResponse() {
		return new TextSelector(Operation.SANITIZE_MODEL_RESPONSE, null);
	}

	/**
	 * Answers the next request with an HTTP error status and Google's error body, e.g.
	 * {@code {"error": {"code": 503, "message": "The service is currently unavailable.", "status":
	 * "UNAVAILABLE"}}}. The starter retries 500, 502, 503, 504 and 429; {@code .always()} makes Model Armor
	 * down.
	 * @param status an HTTP status from 400 to 599
	 * @return the fault, used once unless told otherwise
	 * @throws IllegalArgumentException for another status
	 */
	public StatusFault failWith(int status) {
		return new StatusFault(this.handler.faults().add(QueuedFault.status(status)));
	}

	/**
	 * Answers the next request normally, but only after a delay. Longer than the client's read timeout
	 * ({@code modelarmor.http.read-timeout}), it is a timeout that the client retries.
	 * @param delay how long to wait before answering
	 * @return the fault, used once unless told otherwise
	 */
	public Fault delay(Duration delay) {
		return new Fault(this.handler.faults().add(QueuedFault.delay(delay)));
	}

	/**
	 * Never answers the next request: the stand-in holds it until the client gives up (after
	 * {@code modelarmor.http.read-timeout}, 30 s unless the test sets it shorter) or the stand-in is reset.
	 * @return the fault, used once unless told otherwise
	 */
	public Fault stall() {
		return new Fault(this.handler.faults().add(new QueuedFault(Kind.STALL)));
	}

	/**
	 * How many requests the queued faults will still answer.
	 * @return the count, {@link Integer#MAX_VALUE} when a fault is used always
	 */
	public int pendingFaults() {
		return this.handler.faults().pending();
	}

	/**
	 * Every sanitize request received since the last reset, oldest first.
	 * @return an immutable copy
	 */
	public List<ReceivedRequest> received() {
		return this.handler.received();
	}

	/**
	 * The text of every prompt received since the last reset, oldest first.
	 * @return an immutable list
	 */
	public List<String> receivedPrompts() {
		return this.handler.receivedTexts(Operation.SANITIZE_USER_PROMPT);
	}

	/**
	 * The text of every model response received since the last reset, oldest first.
	 * @return an immutable list
	 */
	public List<String> receivedResponses() {
		return this.handler.receivedTexts(Operation.SANITIZE_MODEL_RESPONSE);
	}

	/**
	 * Names the templates that exist, in place of every template: reads of and sanitize calls to any other
	 * template answer {@code 404 NOT_FOUND} until the next {@link #reset()}.
	 * @param templateIds the ids of the templates that exist (none: no template exists)
	 * @return this stand-in
	 */
	public ModelArmorStandIn onlyTemplates(String... templateIds) {
		this.handler.templates().exist(Set.of(templateIds));
		return this;
	}

	/**
	 * Forgets the programmed rules, the queued faults, the templates named by
	 * {@link #onlyTemplates(String...)} and the received requests, and ends the requests held by a delay or a
	 * stall. The default rules stay.
	 */
	public void reset() {
		this.handler.reset();
	}

	/**
	 * Stops the server: held requests end, and the port is free again.
	 */
	@Override
	public void close() {
		this.handler.releaseHeld();
		this.server.stop();
	}

	@Override
	public String toString() {
		return "ModelArmorStandIn[" + url() + "]";
	}

	/**
	 * Which requests of one operation a programmed answer applies to.
	 */
	public final class TextSelector {

		private final Operation operation;

		private final @Nullable String template;

		private TextSelector(Operation operation, @Nullable String template) {
			this.operation = operation;
			this.template = template;
		}

		/**
		 * Only requests to one template, e.g. the one a {@code @ModelArmorGuarded(template = ...)} names.
		 * @param templateId the template id
		 * @return a selector of that template's requests
		 */
		public TextSelector inTemplate(String templateId) {
			Objects.requireNonNull(templateId, "templateId must not be null");
			return new TextSelector(this.operation, templateId);
		}

		/**
		 * Only requests to one template in one location: the stand-in serves every location at its one
		 * address, the location being in each request's path.
		 * @param template the template and its location
		 * @return a selector of that template's requests in that location
		 */
		public TextSelector inTemplate(TemplateReference template) {
			Objects.requireNonNull(template, "template must not be null");
			return new TextSelector(this.operation, template.name());
		}

		/**
		 * Requests whose text contains the given text (case-sensitive).
		 * @param text the text to look for
		 * @return the choice of the answer
		 */
		public Answer containing(String text) {
			Objects.requireNonNull(text, "text must not be null");
			return new Answer(this, (screened) -> screened.contains(text));
		}

		/**
		 * Requests in whose text the regular expression finds a match.
		 * @param regex a {@link Pattern} expression, e.g. {@code "\\d{3}-\\d{2}-\\d{4}"}
		 * @return the choice of the answer
		 */
		public Answer matching(String regex) {
			Pattern pattern = Pattern.compile(regex);
			return new Answer(this, (screened) -> pattern.matcher(screened).find());
		}

		/**
		 * Every request.
		 * @return the choice of the answer
		 */
		public Answer anyText() {
			return new Answer(this, (screened) -> true);
		}

	}

	/**
	 * The answer to the requests a {@link TextSelector} chose. Each method programs it and returns the
	 * stand-in.
	 */
	public final class Answer {

		private final TextSelector selector;

		private final Predicate<String> text;

		private Answer(TextSelector selector, Predicate<String> text) {
			this.selector = selector;
			this.text = text;
		}

		/**
		 * The named filters match ({@link ModelArmorResults#matched(String, String...)}).
		 * @param filter {@code rai}, {@code sdp}, {@code pi_and_jailbreak}, {@code malicious_uris} or
		 * {@code csam}
		 * @param more more filters
		 * @return the stand-in
		 */
		public ModelArmorStandIn match(String filter, String... more) {
			return respondWith(ModelArmorResults.matched(filter, more));
		}

		/**
		 * Sensitive Data Protection matches and de-identifies the text to the given one
		 * ({@link ModelArmorResults#deidentified(String)}).
		 * @param text the de-identified text
		 * @return the stand-in
		 */
		public ModelArmorStandIn deidentify(String text) {
			return respondWith(ModelArmorResults.deidentified(text));
		}

		/**
		 * Nothing matches ({@link ModelArmorResults#clean()}), whatever the default rules say.
		 * @return the stand-in
		 */
		public ModelArmorStandIn pass() {
			return respondWith(ModelArmorResults.clean());
		}

		/**
		 * Nothing matches, with the given invocation result: {@code PARTIAL} or {@code FAILURE} leave the
		 * text not screened ({@link ModelArmorResults#invocation(InvocationResult)}).
		 * @param invocationResult whether the filters ran
		 * @return the stand-in
		 */
		public ModelArmorStandIn invocation(InvocationResult invocationResult) {
			return respondWith(ModelArmorResults.invocation(invocationResult));
		}

		/**
		 * An answer without {@code filterMatchState} ({@link ModelArmorResults#noVerdict()}).
		 * @return the stand-in
		 */
		public ModelArmorStandIn noVerdict() {
			return respondWith(ModelArmorResults.noVerdict());
		}

		/**
		 * Any result, written as the API's JSON.
		 * @param result the result, e.g. from {@link ModelArmorResults}
		 * @return the stand-in
		 */
		public ModelArmorStandIn respondWith(SanitizationResult result) {
			Objects.requireNonNull(result, "result must not be null");
			ModelArmorStandIn.this.handler
				.addRule(new VerdictRule(this.selector.operation, this.selector.template, this.text, result));
			return ModelArmorStandIn.this;
		}

	}

	/**
	 * A queued fault: used for one request unless {@link #times(int)} or {@link #always()} say otherwise.
	 */
	public class Fault {

		final QueuedFault fault;

		Fault(QueuedFault fault) {
			this.fault = fault;
		}

		/**
		 * Uses the fault for this many requests in a row.
		 * @param requests a count from 1
		 * @return this fault
		 */
		public Fault times(int requests) {
			if (requests < 1) {
				throw new IllegalArgumentException("A fault is used at least once: " + requests);
			}
			update(() -> this.fault.uses = requests);
			return this;
		}

		/**
		 * Uses the fault for every request from now on, until the stand-in is reset.
		 * @return this fault
		 */
		public Fault always() {
			update(() -> this.fault.uses = FaultQueue.ALWAYS);
			return this;
		}

		void update(Runnable change) {
			ModelArmorStandIn.this.handler.faults().update(change);
		}

	}

	/**
	 * A queued HTTP error status.
	 */
	public final class StatusFault extends Fault {

		StatusFault(QueuedFault fault) {
			super(fault);
		}

		@Override
		public StatusFault times(int requests) {
			super.times(requests);
			return this;
		}

		@Override
		public StatusFault always() {
			super.always();
			return this;
		}

		/**
		 * Sends a {@code Retry-After} header (whole seconds, rounded up), which the starter honours.
		 * @param retryAfter the wait asked for
		 * @return this fault
		 */
		public StatusFault retryAfter(Duration retryAfter) {
			Objects.requireNonNull(retryAfter, "retryAfter must not be null");
			update(() -> this.fault.retryAfter = retryAfter);
			return this;
		}

		/**
		 * Sends this body instead of Google's error body, e.g. a proxy's HTML page.
		 * @param contentType the {@code Content-Type}, e.g. {@code text/html}
		 * @param body the body
		 * @return this fault
		 */
		public StatusFault body(String contentType, String body) {
			Objects.requireNonNull(contentType, "contentType must not be null");
			Objects.requireNonNull(body, "body must not be null");
			update(() -> {
				this.fault.contentType = contentType;
				this.fault.body = body;
			});
			return this;
		}

	}

}
