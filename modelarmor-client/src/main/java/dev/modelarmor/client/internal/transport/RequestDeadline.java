package dev.modelarmor.client.internal.transport;

import dev.modelarmor.retry.RetryDeadline;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpRequest;
import org.springframework.web.client.RestClient;

/**
 * The call's {@link RetryDeadline} on the one hop where it cannot be a parameter: through the blocking path's
 * {@code RestClient}, whose only per-request channel to its interceptors and its request factory is the
 * request's attributes (a request consumer sees the interceptors' wrapper, not the transport's request). Every
 * other hop passes the deadline as a parameter: the attempt, the gate, the token fetch's limit, the
 * non-blocking exchange. Written here and read here only, under a key no one else knows.
 */
public final class RequestDeadline {

	private static final String ATTRIBUTE = RequestDeadline.class.getName();

	private RequestDeadline() {
	}

	/**
	 * Makes a request carry its call's deadline.
	 * @param request the request being built
	 * @param deadline the call's deadline
	 * @return the request
	 */
	public static RestClient.RequestBodySpec carry(RestClient.RequestBodySpec request, RetryDeadline deadline) {
		request.attribute(ATTRIBUTE, deadline);
		return request;
	}

	/**
	 * Makes a request that is already made carry its call's deadline, as Spring copies the
	 * {@code RestClient}'s attributes onto the request of its factory.
	 * @param request the request
	 * @param deadline the call's deadline
	 */
	public static void carry(HttpRequest request, RetryDeadline deadline) {
		request.getAttributes().put(ATTRIBUTE, deadline);
	}

	/**
	 * The deadline a request carries.
	 * @param request a request, as its interceptors or its factory's request see it
	 * @return the deadline, or {@code null} when its call has none (a call that is not retried)
	 */
	public static @Nullable RetryDeadline of(HttpRequest request) {
		return (request.getAttributes().get(ATTRIBUTE) instanceof RetryDeadline deadline) ? deadline : null;
	}

}
