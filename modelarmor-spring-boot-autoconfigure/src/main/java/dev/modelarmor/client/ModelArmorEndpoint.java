package dev.modelarmor.client;

import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.Locale;

/**
 * The base URL of the Model Armor API: the regional endpoint of a location, or an explicit URL for a
 * proxy or a local stand-in. Plain {@code http} is accepted only for loopback hosts, so that prompts
 * and tokens never cross a network unencrypted.
 *
 * @param uri the base URL, without a trailing slash
 * @param floorSettingsUri the base URL for floor settings: Google serves them at the global endpoint
 * {@value #GLOBAL}, so a regional endpoint has that; an explicit endpoint (a proxy, a stand-in) serves both
 */
public record ModelArmorEndpoint(URI uri, URI floorSettingsUri) {

	/** Model Armor's global endpoint, which serves floor settings. */
	public static final String GLOBAL = "https://modelarmor.googleapis.com";

	/**
	 * The regional endpoint that serves templates of a location.
	 * @param location a region such as {@code us-central1}, or {@code us} / {@code eu}
	 * @return {@code https://modelarmor.{location}.rep.googleapis.com}
	 */
	public static ModelArmorEndpoint regional(String location) {
		return new ModelArmorEndpoint(of("https://modelarmor." + location + ".rep.googleapis.com").uri(),
				URI.create(GLOBAL));
	}

	/**
	 * An explicit endpoint.
	 * @param url an absolute {@code https} URL, or {@code http} on a loopback host
	 * @return the endpoint
	 * @throws IllegalArgumentException when the URL is not usable, saying why
	 */
	public static ModelArmorEndpoint of(String url) {
		URI uri;
		try {
			uri = new URI(url.strip());
		}
		catch (URISyntaxException ex) {
			throw new IllegalArgumentException("is not a valid URL (" + ex.getReason() + ")");
		}
		String scheme = (uri.getScheme() != null) ? uri.getScheme().toLowerCase(Locale.ROOT) : "";
		if (uri.getHost() == null || !(scheme.equals("https") || scheme.equals("http"))) {
			throw new IllegalArgumentException("must be an absolute http(s) URL such as https://modelarmor.us-central1.rep.googleapis.com");
		}
		if (scheme.equals("http") && !isLoopback(uri.getHost())) {
			throw new IllegalArgumentException(
					"uses plain http for a host that is not loopback; use https (plain http is only for a local stand-in on localhost)");
		}
		if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
			throw new IllegalArgumentException("must not have a query or a fragment");
		}
		String text = uri.toString();
		URI base = URI.create(text.endsWith("/") ? text.substring(0, text.length() - 1) : text);
		return new ModelArmorEndpoint(base, base);
	}

	private static boolean isLoopback(String host) {
		String bare = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
		if (bare.equalsIgnoreCase("localhost")) {
			return true;
		}
		if (!bare.chars().allMatch((c) -> Character.digit(c, 16) >= 0 || c == '.' || c == ':')) {
			return false; // a host name other than localhost: never resolved here, never trusted as loopback
		}
		try {
			return InetAddress.getByName(bare).isLoopbackAddress();
		}
		catch (UnknownHostException ex) {
			return false;
		}
	}

	@Override
	public String toString() {
		return this.uri.toString();
	}

}
