package dev.modelarmor.gateway.internal;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

import org.springframework.web.util.UriUtils;

/**
 * Request paths as the mappers compare them: lower case, without trailing slashes, so that
 * {@code /V1/Chat/Completions/} (or percent-encoded) is screened as {@code /v1/chat/completions} would be.
 */
final class Paths {

	private Paths() {
	}

	static String normalized(String path) {
		String decoded;
		try {
			decoded = UriUtils.decode(path, StandardCharsets.UTF_8);
		}
		catch (IllegalArgumentException ex) {
			decoded = path;
		}
		String lower = decoded.toLowerCase(Locale.ROOT);
		int end = lower.length();
		while (end > 0 && lower.charAt(end - 1) == '/') {
			end--;
		}
		return lower.substring(0, end);
	}

}
