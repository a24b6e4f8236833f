package dev.modelarmor.screening.cache;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

import org.jspecify.annotations.Nullable;

/**
 * The key of a cached verdict: everything a verdict depends on, with the text only as a SHA-256 digest.
 * The template's full name (project, location, template) and the operation are in clear, so that keys
 * of one template can be told apart; the digest covers the text, the user prompt given with a model
 * response, and the window size and overlap that cut long text.
 *
 * <p>This value never leaves the process: a plain digest would let anyone who reads the cache confirm a
 * guessed text. The cache stores under {@link #storedUnder(VerdictSigningKeys)}, an HmacSHA256 of it under
 * the signing key.
 *
 * <p>The text is digested as its UTF-16 code units, not as UTF-8: Java's UTF-8 encoder replaces an
 * unpaired surrogate with {@code ?}, so two different texts would share a key.
 *
 * @param operation {@code sanitize_user_prompt} or {@code sanitize_model_response}
 * @param value the key as stored: {@code v1:<operation>:<template name>:<hex digest>}
 */
record VerdictKey(String operation, String value) {

	static final String USER_PROMPT = "sanitize_user_prompt";

	static final String MODEL_RESPONSE = "sanitize_model_response";

	/** Bumped when what goes into a digest changes, so that old entries are never read as new ones. */
	private static final String VERSION = "v1";

	/** The stored keys' version: v1 stored keys were this key itself, readable by a guesser. */
	private static final String STORED_VERSION = "v2";

	/** Characters digested at a time: bounds the buffer whatever the text's length. */
	private static final int CHUNK = 4096;

	/**
	 * The key of one screening.
	 * @param templateName the template's full resource name
	 * @param operation the Model Armor method
	 * @param windowSize the size of the windows that cut long text
	 * @param windowOverlap their overlap
	 * @param text the screened text
	 * @param userPrompt the prompt given with a model response, or {@code null}
	 * @return the key
	 */
	static VerdictKey of(String templateName, String operation, int windowSize, int windowOverlap, String text,
			@Nullable String userPrompt) {
		MessageDigest digest = sha256();
		ByteBuffer buffer = ByteBuffer.allocate(Long.BYTES * 2 + Integer.BYTES * 2);
		buffer.putInt(windowSize).putInt(windowOverlap);
		buffer.putLong(text.length()).putLong((userPrompt != null) ? userPrompt.length() : -1);
		digest.update(buffer.array());
		update(digest, text);
		if (userPrompt != null) {
			update(digest, userPrompt);
		}
		String hex = HexFormat.of().formatHex(digest.digest());
		return new VerdictKey(operation, VERSION + ":" + operation + ":" + templateName + ":" + hex);
	}

	private static void update(MessageDigest digest, String text) {
		ByteBuffer bytes = ByteBuffer.allocate(Math.min(text.length(), CHUNK) * Character.BYTES);
		for (int start = 0; start < text.length(); start += CHUNK) {
			int end = Math.min(text.length(), start + CHUNK);
			bytes.clear();
			for (int i = start; i < end; i++) {
				bytes.putChar(text.charAt(i));
			}
			digest.update(bytes.array(), 0, bytes.position());
		}
	}

	private static MessageDigest sha256() {
		try {
			return MessageDigest.getInstance("SHA-256");
		}
		catch (NoSuchAlgorithmException ex) {
			// Every Java platform must provide SHA-256.
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * The key the cache stores under: {@code v2:<operation>:<template name>:<HmacSHA256 of this key, hex>}.
	 * Without the signing key no one can compute it for a guessed text.
	 * @param keys the signing keys
	 * @return the stored key
	 */
	String storedUnder(VerdictSigningKeys keys) {
		String templateName = this.value.substring(VERSION.length() + this.operation.length() + 2,
				this.value.lastIndexOf(':'));
		return STORED_VERSION + ":" + this.operation + ":" + templateName + ":" + keys.digest(this.value);
	}

	@Override
	public String toString() {
		return this.value;
	}

}
