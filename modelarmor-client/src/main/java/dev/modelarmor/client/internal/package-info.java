/**
 * Plumbing of the client module that its other packages share; not an API: its types may change in any
 * release without notice. Nothing an application writes against names them.
 */
@NullMarked
package dev.modelarmor.client.internal;

import org.jspecify.annotations.NullMarked;
