package dev.modelarmor.gateway.internal;

import dev.modelarmor.screening.MatchAction;
import org.jspecify.annotations.Nullable;

/**
 * What one route's filter does, its arguments merged over {@code modelarmor.gateway.*}.
 *
 * @param routeId the route, in log lines and metrics
 * @param api the route's API: {@code openai}, {@code gemini} or {@code anthropic}
 * @param promptTemplate the template of prompts, or {@code null} for the tenant's or the client's
 * @param responseTemplate the template of answers, or {@code null} for the tenant's or the client's
 * @param onMatch what a match does
 * @param screenSystem whether system messages are screened
 * @param failOpen whether the route lets through what Model Armor could not screen (the starter's
 * {@code modelarmor.screening.fail-open} lets everything through already)
 * @param maxRequestBytes the largest request read
 * @param maxResponseBytes the largest answer read, and the most of a stream held
 * @param maxEventBytes the largest event of a stream
 * @param firstSegment the first segment of a stream, in UTF-8 bytes
 * @param segment the later segments of a stream
 * @param overlap the overlap of a stream's segments
 * @param retryAfterSeconds the Retry-After of a 503
 */
public record RouteSettings(String routeId, String api, @Nullable String promptTemplate,
		@Nullable String responseTemplate, MatchAction onMatch, boolean screenSystem, boolean failOpen,
		int maxRequestBytes, int maxResponseBytes, int maxEventBytes, int firstSegment, int segment, int overlap,
		long retryAfterSeconds) {

	/**
	 * Checks the settings.
	 */
	public RouteSettings {
		ApiMappers.of(api);
		if (segment <= 0 || overlap < 0 || overlap > segment / 2 || firstSegment <= 0 || firstSegment > segment) {
			throw new IllegalArgumentException("the stream's segments must be positive, the first at most the others, "
					+ "the overlap at most half a segment");
		}
		if (maxRequestBytes <= 0 || maxResponseBytes <= 0 || maxEventBytes <= 0) {
			throw new IllegalArgumentException("the size limits must be positive");
		}
	}

	ApiMapper mapper() {
		return ApiMappers.of(this.api);
	}

	String caller() {
		return "gateway route " + this.routeId;
	}

	/**
	 * The same settings for another route.
	 * @param routeId the route
	 * @return the settings
	 */
	public RouteSettings withRouteId(String routeId) {
		return new RouteSettings(routeId, this.api, this.promptTemplate, this.responseTemplate,
				this.onMatch, this.screenSystem, this.failOpen, this.maxRequestBytes, this.maxResponseBytes,
				this.maxEventBytes, this.firstSegment, this.segment, this.overlap, this.retryAfterSeconds);
	}

}
