/**
 * Plumbing that every package of the starter may share (futures, UTF-8 lengths), depending on none of them.
 * Not an API: its types may change in any release without notice, and nothing an application writes against
 * names them.
 */
@NullMarked
package dev.modelarmor.internal;

import org.jspecify.annotations.NullMarked;
