package dev.modelarmor.gateway;

import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What users write against names no plumbing: no public or protected member of the public types of
 * {@code dev.modelarmor.gateway} has an internal type in its signature.
 */
class GatewayApiTests {

	@Test
	void thePublicTypesNameNoInternalType() {
		List<String> leaks = new ArrayList<>();
		for (Class<?> type : List.of(ModelArmorGatewayFilterFactory.class, ModelArmorGatewayFilterFactory.Config.class,
				ModelArmorGatewayFilterFactory.Api.class, ModelArmorGatewayProperties.class,
				ModelArmorGatewayProperties.Stream.class, ModelArmorGatewayAutoConfiguration.class)) {
			List<Executable> members = new ArrayList<>(List.of(type.getDeclaredConstructors()));
			members.addAll(List.of(type.getDeclaredMethods()));
			for (Executable member : members) {
				if (!Modifier.isPublic(member.getModifiers()) && !Modifier.isProtected(member.getModifiers())) {
					continue;
				}
				String signature = (member instanceof Method method) ? method.toGenericString()
						: ((Constructor<?>) member).toGenericString();
				if (signature.contains(".internal.")) {
					leaks.add(signature);
				}
			}
		}
		assertThat(leaks).isEmpty();
	}

}
