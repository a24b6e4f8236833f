/**
 * Plumbing of the retry strategy that the client and screening packages share; not an API: its types may change in any
 * release without notice. Nothing an application writes against names them.
 */
@NullMarked
package dev.modelarmor.retry.internal;

import org.jspecify.annotations.NullMarked;
