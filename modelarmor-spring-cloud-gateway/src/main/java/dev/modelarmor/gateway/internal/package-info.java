/**
 * The gateway filter's plumbing: one mapper per LLM API (what a request and an answer hold, how the API
 * refuses, how its streams are framed), the screening of a request, an answer and a stream. Not an API.
 */
@NullMarked
package dev.modelarmor.gateway.internal;

import org.jspecify.annotations.NullMarked;
