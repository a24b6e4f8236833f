package dev.modelarmor.screening;

import java.lang.reflect.Proxy;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import dev.modelarmor.client.ModelArmorOperations;
import dev.modelarmor.client.SanitizationResult;
import org.jspecify.annotations.Nullable;

/**
 * Clients for tests of the screening over a non-blocking path: they name a template (so a verdict cache is
 * asked) and answer every asynchronous sanitize call as the test says.
 */
final class NonBlockingClients {

	private NonBlockingClients() {
	}

	/**
	 * A non-blocking client naming a template.
	 * @param name what {@code toString} says
	 * @param call gives each asynchronous sanitize call's future (or throws, or gives {@code null})
	 * @return the client; any other method throws
	 */
	static ModelArmorOperations answering(String name, Supplier<@Nullable CompletableFuture<SanitizationResult>> call) {
		return (ModelArmorOperations) Proxy.newProxyInstance(NonBlockingClients.class.getClassLoader(),
				new Class<?>[] { ModelArmorOperations.class }, (proxy, method, args) -> switch (method.getName()) {
					case "isNonBlocking" -> true;
					case "templateName" -> "projects/p/locations/l/templates/t";
					case "withTemplate" -> proxy;
					case "close" -> null;
					case "hashCode" -> System.identityHashCode(proxy);
					case "equals" -> proxy == args[0];
					case "toString" -> name;
					case "sanitizeUserPromptAsync", "sanitizeModelResponseAsync" -> call.get();
					default -> throw new UnsupportedOperationException(method.getName());
				});
	}

}
