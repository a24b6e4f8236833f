package dev.modelarmor.screening.cache;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * The keys a {@link VerdictCache} computes its stored keys with and signs its values with (HmacSHA256).
 * The current key does both; previous keys (after a rotation) only tell a value signed before the rotation
 * from a forgery: such a value is a miss all the same, screened again and written under the current key.
 * A reader of the cache without the key cannot tell which text a stored key stands for, and a writer
 * without it cannot make a value the cache accepts.
 *
 * <p>Never in a log line, an exception message or {@link #toString()}: each key is known outside by its id
 * only, the first bytes of a digest of it, which tells nothing about the key.
 */
public final class VerdictSigningKeys {

	/** The shortest key accepted: 32 bytes, HmacSHA256's own output length. */
	public static final int MIN_KEY_BYTES = 32;

	private static final String ALGORITHM = "HmacSHA256";

	private final SigningKey current;

	private final List<SigningKey> previous;

	private VerdictSigningKeys(SigningKey current, List<SigningKey> previous) {
		this.current = current;
		this.previous = List.copyOf(previous);
	}

	/**
	 * Keys from their Base64 forms (as {@code openssl rand -base64 32} prints one).
	 * @param current the key that signs, Base64
	 * @param previous keys that signed before a rotation, Base64
	 * @return the keys
	 * @throws IllegalArgumentException when a key is not Base64 or shorter than {@link #MIN_KEY_BYTES}; the
	 * message never quotes the key
	 */
	public static VerdictSigningKeys of(String current, List<String> previous) {
		Assert.notNull(current, "current must not be null");
		Assert.notNull(previous, "previous must not be null");
		List<SigningKey> old = new ArrayList<>();
		for (String key : previous) {
			old.add(new SigningKey(decode(key, "a previous signing key")));
		}
		return new VerdictSigningKeys(new SigningKey(decode(current, "the signing key")), old);
	}

	/**
	 * A random key known to this process alone, for a cache no other process reads.
	 * @return the keys
	 */
	public static VerdictSigningKeys random() {
		byte[] key = new byte[MIN_KEY_BYTES];
		new SecureRandom().nextBytes(key);
		return new VerdictSigningKeys(new SigningKey(key), List.of());
	}

	private static byte[] decode(String key, String what) {
		byte[] bytes;
		try {
			bytes = Base64.getDecoder().decode(key.strip());
		}
		catch (IllegalArgumentException ex) {
			// Not the exception's message: it may quote a character of the key.
			throw new IllegalArgumentException(what + " is not Base64");
		}
		if (bytes.length < MIN_KEY_BYTES) {
			throw new IllegalArgumentException(what + " is " + bytes.length + " bytes, at least " + MIN_KEY_BYTES
					+ " are needed");
		}
		return bytes;
	}

	/**
	 * The id of the current key, stored beside each signature.
	 * @return the id, 16 hex digits
	 */
	public String currentKeyId() {
		return this.current.id;
	}

	/** The HMAC of a text under the current key, in hex. */
	String digest(String text) {
		return HexFormat.of().formatHex(this.current.mac(text));
	}

	/** The signature of a text under the current key, Base64 (URL-safe, unpadded). */
	String sign(String text) {
		return Base64.getUrlEncoder().withoutPadding().encodeToString(this.current.mac(text));
	}

	/**
	 * Checks a signature.
	 * @param keyId the id stored with it
	 * @param text what was signed
	 * @param signature the signature, Base64
	 * @return what the signature is
	 */
	Signature verify(String keyId, String text, String signature) {
		SigningKey key = find(keyId);
		if (key == null) {
			return Signature.UNKNOWN_KEY;
		}
		byte[] given;
		try {
			given = Base64.getUrlDecoder().decode(signature);
		}
		catch (IllegalArgumentException ex) {
			return Signature.INVALID;
		}
		if (!MessageDigest.isEqual(key.mac(text), given)) {
			return Signature.INVALID;
		}
		return (key == this.current) ? Signature.VALID : Signature.PREVIOUS_KEY;
	}

	private @Nullable SigningKey find(String keyId) {
		if (this.current.id.equals(keyId)) {
			return this.current;
		}
		for (SigningKey key : this.previous) {
			if (key.id.equals(keyId)) {
				return key;
			}
		}
		return null;
	}

	@Override
	public String toString() {
		return "VerdictSigningKeys[current=" + this.current.id + ", previous=" + this.previous.size() + "]";
	}

	/** What a signature read back is. */
	enum Signature {

		/** Made with the current key. */
		VALID,

		/** Made with a previous key: a miss, not a forgery. */
		PREVIOUS_KEY,

		/** Does not verify: a possible forgery. */
		INVALID,

		/** Names a key that is not known: a possible forgery. */
		UNKNOWN_KEY

	}

	private static final class SigningKey {

		private final SecretKeySpec key;

		private final String id;

		SigningKey(byte[] bytes) {
			this.key = new SecretKeySpec(bytes, ALGORITHM);
			this.id = HexFormat.of().formatHex(sha256(bytes), 0, 8);
		}

		byte[] mac(String text) {
			try {
				Mac mac = Mac.getInstance(ALGORITHM);
				mac.init(this.key);
				return mac.doFinal(text.getBytes(StandardCharsets.UTF_8));
			}
			catch (NoSuchAlgorithmException | InvalidKeyException ex) {
				// Every Java platform must provide HmacSHA256, and any key length suits it.
				throw new IllegalStateException(ALGORITHM + " is not available");
			}
		}

		private static byte[] sha256(byte[] bytes) {
			try {
				MessageDigest digest = MessageDigest.getInstance("SHA-256");
				digest.update("modelarmor-verdict-key-id:".getBytes(StandardCharsets.UTF_8));
				return digest.digest(bytes);
			}
			catch (NoSuchAlgorithmException ex) {
				throw new IllegalStateException(ex);
			}
		}

	}

}
