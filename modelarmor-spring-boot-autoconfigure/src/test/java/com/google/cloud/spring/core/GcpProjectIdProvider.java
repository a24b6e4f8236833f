package com.google.cloud.spring.core;

/**
 * Test-only stand-in for spring-cloud-gcp-core's interface of the same name, which does not resolve here.
 * The starter touches it only by this name and its one method, {@code String getProjectId()}, which is
 * the whole of the published interface; its presence is also how the starter knows that spring-cloud-gcp is
 * on the class path. What this cannot show is a future spring-cloud-gcp release changing that interface.
 */
@FunctionalInterface
public interface GcpProjectIdProvider {

	String getProjectId();

}
