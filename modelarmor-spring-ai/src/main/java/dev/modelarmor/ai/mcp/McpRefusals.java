package dev.modelarmor.ai.mcp;

import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

import dev.modelarmor.screening.ScreeningDecision.Blocked;
import dev.modelarmor.screening.ScreeningDecision.NotScreened;
import dev.modelarmor.screening.ScreeningDecision.Refusal;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import org.jspecify.annotations.Nullable;

/**
 * What an MCP client reads when Model Armor refused part of its request: a tool error result
 * ({@code isError: true}) for {@code tools/call}, so that the calling agent's model reads it and the protocol goes
 * on, or a JSON-RPC error for {@code prompts/get} and {@code resources/read}, which have no error result. The
 * message names the matched filters, never the content, and says nothing of Model Armor's infrastructure to the
 * outside caller (the operators' WARN line has the reason).
 */
final class McpRefusals {

	private static final Pattern FILTER = Pattern.compile("[a-z0-9_.-]{1,64}");

	private McpRefusals() {
	}

	/**
	 * The message of a refusal.
	 * @param what what was refused, e.g. {@code the arguments of tool "weather"}
	 * @param refusal the refusal, or {@code null} for a tool definition that did not pass (blocked, or not
	 * screened while screening fails closed: the tool screener tells no more)
	 * @return the message
	 */
	static String message(String what, @Nullable Refusal refusal) {
		if (refusal instanceof Blocked blocked) {
			return "Refused by Model Armor: " + what + " matched the filters " + filters(blocked.result().matchedFilters())
					+ ".";
		}
		if (refusal instanceof NotScreened) {
			return "Refused: " + what + " could not be screened by Model Armor.";
		}
		if (refusal == null) {
			return "Refused: " + what + " did not pass Model Armor's screening.";
		}
		return "Refused: Model Armor did not accept " + what + " for screening.";
	}

	/**
	 * A tool error result for a refusal.
	 * @param message the refusal's message
	 * @return the result
	 */
	static CallToolResult toolError(String message) {
		return CallToolResult.builder().addTextContent(message).isError(true).build();
	}

	/**
	 * A JSON-RPC error for a refusal of a prompt or a resource.
	 * @param message the refusal's message
	 * @return the error
	 */
	static McpError error(String message) {
		return McpError.builder(McpSchema.ErrorCodes.INTERNAL_ERROR).message(message).build();
	}

	/**
	 * A name the server declared, fit for a log line and a metric tag.
	 * @param name the tool's or prompt's name, or a resource's URI
	 * @return at most 128 characters, each of them a letter, a digit or one of {@code _.:/{}-}
	 */
	static String loggable(@Nullable String name) {
		if (name == null || name.isEmpty()) {
			return "unnamed";
		}
		StringBuilder loggable = new StringBuilder(Math.min(name.length(), 128));
		for (int i = 0; i < name.length() && loggable.length() < 128; i++) {
			char c = name.charAt(i);
			boolean allowed = (c < 128) && (Character.isLetterOrDigit(c) || "_.:/{}-".indexOf(c) >= 0);
			loggable.append(allowed ? c : '_');
		}
		return loggable.toString();
	}

	private static String filters(Set<String> matched) {
		Set<String> named = new TreeSet<>();
		for (String filter : matched) {
			String lower = filter.toLowerCase(Locale.ROOT);
			if (FILTER.matcher(lower).matches() && named.size() < 16) {
				named.add(lower);
			}
		}
		return named.toString();
	}

}
