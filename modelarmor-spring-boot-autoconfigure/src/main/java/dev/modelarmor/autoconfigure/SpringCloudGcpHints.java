package dev.modelarmor.autoconfigure;

import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;

/**
 * Lets a native image make the two calls {@link SpringCloudGcp} makes by name: each provider's one method,
 * invoked through its interface. Registered by type name, so that the hints cost nothing where
 * spring-cloud-gcp is absent.
 */
class SpringCloudGcpHints implements RuntimeHintsRegistrar {

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		for (String[] typeAndMethod : List.of(
				new String[] { SpringCloudGcp.CREDENTIALS_PROVIDER, "getCredentials" },
				new String[] { SpringCloudGcp.PROJECT_ID_PROVIDER, "getProjectId" })) {
			hints.reflection()
				.registerType(TypeReference.of(typeAndMethod[0]),
						(type) -> type.withMethod(typeAndMethod[1], List.of(), ExecutableMode.INVOKE));
		}
	}

}
