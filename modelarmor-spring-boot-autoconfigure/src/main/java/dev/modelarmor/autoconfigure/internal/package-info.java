/**
 * Plumbing that the starter's auto-configurations in other modules (LangChain4j, the gateway) share with the
 * core ones: not for applications.
 */
@NullMarked
package dev.modelarmor.autoconfigure.internal;

import org.jspecify.annotations.NullMarked;
