/**
 * Not API: the servlet filter and the WebFlux filter that name a request's tenant from the configured header
 * ({@code modelarmor.tenant.header}). It may change in any release.
 */
@NullMarked
package dev.modelarmor.web.internal;

import org.jspecify.annotations.NullMarked;
