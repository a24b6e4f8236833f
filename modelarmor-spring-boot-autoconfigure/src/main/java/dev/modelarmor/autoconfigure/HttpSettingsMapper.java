package dev.modelarmor.autoconfigure;

import java.time.Duration;

import dev.modelarmor.client.HttpTimeouts;
import dev.modelarmor.client.ModelArmorConfigurationException;
import dev.modelarmor.retry.InvalidSettingException;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.boot.http.client.HttpRedirects;
import org.springframework.boot.ssl.NoSuchSslBundleException;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;

import static dev.modelarmor.autoconfigure.PropertyValues.invalid;

/**
 * Maps {@code modelarmor.http.*} onto the HTTP client settings of each attempt: each one set here wins over
 * Spring Boot's {@code spring.http.clients.*}, which wins over {@link HttpTimeouts#DEFAULTS}; redirects are
 * never followed.
 */
final class HttpSettingsMapper {

	private static final String SSL_BUNDLE = "modelarmor.http.ssl.bundle";

	private HttpSettingsMapper() {
	}

	/**
	 * The HTTP client settings.
	 * @param http {@code modelarmor.http.*}
	 * @param application Spring Boot's HTTP client settings ({@code spring.http.clients.*})
	 * @param sslBundles the SSL bundles that {@code modelarmor.http.ssl.bundle} names, or {@code null} when
	 * there are none
	 * @return the settings, with both timeouts resolved
	 * @throws ModelArmorConfigurationException naming the property whose value is refused
	 */
	static HttpClientSettings http(ModelArmorProperties.Http http, HttpClientSettings application,
			@Nullable SslBundles sslBundles) {
		HttpTimeouts timeouts;
		try {
			timeouts = new HttpTimeouts(first(http.getConnectTimeout(), application.connectTimeout(),
					HttpTimeouts.DEFAULTS.connect()),
					first(http.getReadTimeout(), application.readTimeout(), HttpTimeouts.DEFAULTS.read()));
		}
		catch (InvalidSettingException ex) {
			Object ours = "connect-timeout".equals(ex.setting()) ? http.getConnectTimeout() : http.getReadTimeout();
			throw invalid((ours != null) ? "modelarmor.http." : "spring.http.clients.", ex);
		}
		String bundleName = http.getSsl().getBundle();
		SslBundle bundle = (bundleName != null) ? sslBundle(bundleName, sslBundles) : application.sslBundle();
		// Redirects are refused by the transport whatever these say; said here too for whoever reads them.
		return application.withTimeouts(timeouts.connect(), timeouts.read())
			.withSslBundle(bundle)
			.withRedirects(HttpRedirects.DONT_FOLLOW);
	}

	private static Duration first(@Nullable Duration ours, @Nullable Duration application, Duration fallback) {
		return (ours != null) ? ours : (application != null) ? application : fallback;
	}

	private static SslBundle sslBundle(String name, @Nullable SslBundles sslBundles) {
		String define = "; define it under spring.ssl.bundle.jks." + name + " or spring.ssl.bundle.pem." + name
				+ ", or remove " + SSL_BUNDLE;
		if (name.isBlank()) {
			throw invalid(SSL_BUNDLE, name, "is blank; name an SSL bundle or remove it");
		}
		if (sslBundles == null) {
			throw invalid(SSL_BUNDLE, name, "names an SSL bundle, but the application has no SSL bundles" + define);
		}
		try {
			return sslBundles.getBundle(name);
		}
		catch (NoSuchSslBundleException ex) {
			throw invalid(SSL_BUNDLE, name, "names no SSL bundle" + define);
		}
	}

}
