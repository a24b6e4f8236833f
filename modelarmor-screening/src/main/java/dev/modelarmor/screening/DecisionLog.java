package dev.modelarmor.screening;

import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.modelarmor.client.TemplateReference;
import dev.modelarmor.retry.CallLog;
import dev.modelarmor.screening.ScreeningDecider.Side;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The log lines of {@link ScreeningDecider}'s decisions, in its log category: at most so many of a kind each
 * second ({@link LogLineRate}), the rest counted in one line, each naming the template and its location in a
 * form fit for a log line. Never the content.
 */
final class DecisionLog {

	private static final Logger logger = LoggerFactory.getLogger(ScreeningDecider.class);

	/** The lines that count the lines left out: about no one call, so apart from the calls' lines. */
	private static final Logger leftOutLogger = LoggerFactory.getLogger(LogLineRate.class);

	/** {@code projects/{project}/locations/{location}/templates/{id}}: the client's own template. */
	private static final Pattern TEMPLATE_NAME = Pattern.compile("projects/[^/]+/locations/([^/]+)/templates/([^/]+)");

	private static final int MAX_LOGGED_NAME = 200;

	private final LogLineRate lines;

	/** The client's own template and its location, as log lines name them; either may be unknown. */
	private final Named clientTemplate;

	/**
	 * Creates the log.
	 * @param lines how many lines of each outcome are written in full each second
	 * @param clientTemplateName the full resource name of the client's own template, or {@code null} when unknown
	 */
	DecisionLog(LogLineRate lines, @Nullable String clientTemplateName) {
		this.lines = lines;
		Matcher name = (clientTemplateName != null) ? TEMPLATE_NAME.matcher(clientTemplateName) : null;
		this.clientTemplate = (name != null && name.matches()) ? new Named(loggable(name.group(2)), loggable(name.group(1)))
				: new Named(null, null);
	}

	/**
	 * Writes one line about a call, unless this second's lines of its kind are all written: then it is counted,
	 * and the next second's first line of the kind is preceded by one line with the count. Every line carries
	 * {@code call_id} (the client's call's when known, else one of its own), {@code template} and
	 * {@code location}.
	 * @param warn WARN, else INFO
	 * @param outcome the {@code outcome} of the summary line
	 * @param kind which lines are counted together: an outcome, or an outcome and a variant of it
	 * @param side who is screened
	 * @param callId the client's call id, or {@code null}
	 * @param template the template as the client named it, or {@code null} for the side's
	 * @param fields adds the line's own fields
	 * @param message the readable message, made only when the line is written
	 */
	void write(boolean warn, String outcome, String kind, Side side, @Nullable String callId,
			@Nullable String template, Consumer<CallLog> fields, Supplier<String> message) {
		LogLineRate.Admission admission = this.lines.admit((warn ? "WARN " : "INFO ") + kind);
		long leftOut = admission.leftOut();
		if (leftOut > 0) {
			int full = this.lines.linesPerSecond();
			(warn ? CallLog.warn(leftOutLogger) : CallLog.info(leftOutLogger)).outcome(outcome)
				.field("left_out", leftOut)
				.log(() -> "Model Armor left out log lines of a second beyond the first ones "
						+ "(modelarmor.screening.log-lines-per-second); the meters count every call: lines=\"" + kind
						+ "\" left_out=" + leftOut + " written_in_full=" + full);
		}
		if (!admission.write()) {
			return;
		}
		Named named = named(side);
		CallLog line = (warn ? CallLog.warn(logger) : CallLog.info(logger))
			.callId((callId != null) ? callId : CallLog.newCallId())
			.field("template", (template != null) ? loggable(template) : named.template())
			.field("location", named.location());
		fields.accept(line);
		line.log(message);
	}

	/** The template of a side and its location, as log lines name them: the side's own, else the client's. */
	private Named named(Side side) {
		String template = side.template();
		if (template == null || template.isEmpty()) {
			return this.clientTemplate;
		}
		if (TemplateReference.isReference(template)) {
			try {
				TemplateReference reference = TemplateReference.parse(template);
				return new Named(loggable(reference.templateId()), loggable(reference.location()));
			}
			catch (IllegalArgumentException ex) {
				return new Named(loggable(template), null);
			}
		}
		return new Named(loggable(template), this.clientTemplate.location());
	}

	/** A name fit for a log line: bounded, any character but letters, digits and {@code / _ . -} replaced. */
	private static String loggable(String name) {
		String bounded = (name.length() > MAX_LOGGED_NAME) ? name.substring(0, MAX_LOGGED_NAME) : name;
		return bounded.replaceAll("[^A-Za-z0-9/_.-]", "?");
	}

	/**
	 * A template and its location as log lines name them.
	 *
	 * @param template the template id, or {@code null} when unknown
	 * @param location its location, or {@code null} when unknown
	 */
	private record Named(@Nullable String template, @Nullable String location) {
	}

}
