package dev.modelarmor.auth;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

import org.jspecify.annotations.Nullable;

/**
 * A service-account key made up for a test: a fresh RSA key pair and a JSON file whose
 * {@code token_uri} points at a local WireMock server.
 */
public record TestServiceAccount(String json, String privateKeyBase64) {

	/** The project id in the key file. */
	public static final String PROJECT_ID = "sa-project";

	static final String CLIENT_EMAIL = "tester@sa-project.iam.gserviceaccount.com";

	static final String PRIVATE_KEY_ID = "0123456789abcdef";

	/**
	 * A new key whose token endpoint is the given URI.
	 * @param tokenUri where google-auth fetches access tokens
	 * @return the account
	 */
	public static TestServiceAccount create(String tokenUri) {
		return create(tokenUri, null);
	}

	static TestServiceAccount create(String tokenUri, @Nullable String quotaProjectId) {
		String base64 = Base64.getEncoder().encodeToString(generateKeyPair().getPrivate().getEncoded());
		StringBuilder pem = new StringBuilder("-----BEGIN PRIVATE KEY-----\\n");
		for (int i = 0; i < base64.length(); i += 64) {
			pem.append(base64, i, Math.min(base64.length(), i + 64)).append("\\n");
		}
		pem.append("-----END PRIVATE KEY-----\\n");
		String quota = (quotaProjectId != null) ? "  \"quota_project_id\": \"" + quotaProjectId + "\",\n" : "";
		String json = "{\n" + "  \"type\": \"service_account\",\n" + "  \"project_id\": \"" + PROJECT_ID + "\",\n"
				+ "  \"private_key_id\": \"" + PRIVATE_KEY_ID + "\",\n" + "  \"private_key\": \"" + pem + "\",\n"
				+ "  \"client_email\": \"" + CLIENT_EMAIL + "\",\n" + "  \"client_id\": \"123456789012345678901\",\n"
				+ quota + "  \"token_uri\": \"" + tokenUri + "\"\n" + "}\n";
		return new TestServiceAccount(json, base64);
	}

	/**
	 * Writes the JSON key file.
	 * @param directory where to write it
	 * @return the file
	 * @throws IOException when it cannot be written
	 */
	public Path writeTo(Path directory) throws IOException {
		return Files.writeString(directory.resolve("service-account.json"), this.json, StandardCharsets.UTF_8);
	}

	byte[] bytes() {
		return this.json.getBytes(StandardCharsets.UTF_8);
	}

	/**
	 * A run of the encoded private key that must never show up in a message.
	 * @return 40 characters from the middle of the key
	 */
	public String privateKeyFragment() {
		return this.privateKeyBase64.substring(200, 240);
	}

	private static KeyPair generateKeyPair() {
		try {
			KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
			generator.initialize(2048);
			return generator.generateKeyPair();
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
