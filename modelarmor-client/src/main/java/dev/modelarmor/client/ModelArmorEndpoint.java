package dev.modelarmor.client;

import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The base URL of the Model Armor API: the regional endpoint of a location, or an explicit URL for a
 * proxy or a local stand-in. Plain {@code http} is accepted only for loopback hosts, so that prompts
 * and tokens never cross a network unencrypted: {@code localhost} and loopback IP literals
 * ({@code 127.0.0.0/8}, {@code [::1]}). No other host name is trusted as loopback, even one that resolves
 * to it today: nothing is resolved here, and what a name resolves to can change after startup.
 *
 * @param uri the base URL, without a trailing slash
 * @param floorSettingsUri the base URL for floor settings: Google serves them at the global endpoint
 * {@value #GLOBAL}, so a regional endpoint has that; an explicit endpoint (a proxy, a stand-in) serves both
 */
public record ModelArmorEndpoint(URI uri, URI floorSettingsUri) {

	/** Model Armor's global endpoint, which serves floor settings. */
	public static final String GLOBAL = "https://modelarmor.googleapis.com";

	/** A region as it may stand in a host name: one DNS label of lowercase letters, digits and hyphens. */
	private static final Pattern REGION = Pattern.compile("[a-z][a-z0-9-]{0,62}");

	private static final String REGIONAL_SUFFIX = ".rep.googleapis.com";

	/** An IPv4 literal in 127.0.0.0/8, in the dotted-quad form only: other forms would be looked up as names. */
	private static final Pattern LOOPBACK_IPV4 = Pattern.compile("127\\.([0-9]{1,3})\\.([0-9]{1,3})\\.([0-9]{1,3})");

	/**
	 * The regional endpoint that serves templates of a location.
	 * @param location a region such as {@code us-central1}, or {@code us} / {@code eu}
	 * @return {@code https://modelarmor.{location}.rep.googleapis.com}
	 * @throws IllegalArgumentException when the location is not a region name (lowercase letters, digits
	 * and hyphens): it becomes part of the host name, where anything else could name another host
	 */
	public static ModelArmorEndpoint regional(String location) {
		if (location == null || !REGION.matcher(location).matches()) {
			throw new IllegalArgumentException(
					"location must be a region such as us-central1, or us or eu (lowercase letters, digits and hyphens)");
		}
		return new ModelArmorEndpoint(of("https://modelarmor." + location + ".rep.googleapis.com").uri(),
				URI.create(GLOBAL));
	}

	/**
	 * The endpoint that serves the templates of another location: for a regional endpoint, that location's
	 * regional endpoint; an explicit endpoint (a proxy, a local stand-in) serves every location itself, the
	 * location being in each request's path.
	 * @param location a region such as {@code europe-west4}, or {@code us} / {@code eu}
	 * @return the endpoint for that location
	 * @throws IllegalArgumentException when the location is not a region name
	 */
	public ModelArmorEndpoint forLocation(String location) {
		return isRegional() ? regional(location) : this;
	}

	/**
	 * Whether this is a location's regional endpoint, {@code https://modelarmor.{location}.rep.googleapis.com}.
	 * @return whether it is
	 */
	public boolean isRegional() {
		String host = this.uri.getHost();
		return "https".equals(this.uri.getScheme()) && host != null && host.startsWith("modelarmor.")
				&& host.endsWith(REGIONAL_SUFFIX) && this.uri.getPort() == -1
				&& (this.uri.getRawPath() == null || this.uri.getRawPath().isEmpty())
				&& REGION.matcher(host.substring("modelarmor.".length(), host.length() - REGIONAL_SUFFIX.length()))
					.matches();
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
		if (uri.getRawUserInfo() != null) {
			throw new IllegalArgumentException("must not carry user information before the host: it would be "
					+ "written wherever the endpoint is");
		}
		String text = uri.toString();
		URI base = URI.create(text.endsWith("/") ? text.substring(0, text.length() - 1) : text);
		return new ModelArmorEndpoint(base, base);
	}

	private static boolean isLoopback(String host) {
		if (host.equalsIgnoreCase("localhost")) {
			return true;
		}
		if (LOOPBACK_IPV4.matcher(host).matches()) {
			return true; // java.net.URI has checked the literal: no octet above 255 comes this far
		}
		if (host.startsWith("[") && host.endsWith("]")) {
			try {
				// an IPv6 literal (java.net.URI has checked its form): parsed, never looked up
				return InetAddress.getByName(host).isLoopbackAddress();
			}
			catch (UnknownHostException ex) {
				return false;
			}
		}
		return false; // a host name other than localhost: never resolved here, never trusted as loopback
	}

	@Override
	public String toString() {
		return this.uri.toString();
	}

}
