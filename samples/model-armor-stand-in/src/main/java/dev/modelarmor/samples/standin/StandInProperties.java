package dev.modelarmor.samples.standin;

import java.util.List;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of the local Model Armor stand-in (profile {@code local}), prefix {@code stand-in}.
 * @param maliciousUrls URLs that the stand-in's {@code malicious_uris} filter matches
 * @param faults HTTP statuses answered, in order, before any normal answer, e.g. {@code 503,503,429}
 */
@ConfigurationProperties("stand-in")
public record StandInProperties(
		@DefaultValue({ StandInProperties.MALWARE_TEST_PAGE, "http://malware.example/" }) List<String> maliciousUrls,
		@DefaultValue List<Integer> faults) {

	/**
	 * Google Safe Browsing's test malware page: listed by default, and flagged by the real
	 * {@code malicious_uris} filter too.
	 */
	public static final String MALWARE_TEST_PAGE = "http://testsafebrowsing.appspot.com/s/malware.html";

}
