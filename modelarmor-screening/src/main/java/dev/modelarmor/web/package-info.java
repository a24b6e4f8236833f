/**
 * Spring MVC and WebFlux rendering of refusals as RFC 9457 problem details.
 */
@NullMarked
package dev.modelarmor.web;

import org.jspecify.annotations.NullMarked;
