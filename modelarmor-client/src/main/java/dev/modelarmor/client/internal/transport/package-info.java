/**
 * The client's HTTP transport: the JDK client's requests with their answers received whole and capped, each
 * attempt's read timeout cut to what is left of its call's deadline, the exchange slots of each location, the
 * watcher that ends answers that come too slowly, and the {@code RestClient} that the blocking path talks
 * through. Not an API: public only for {@code dev.modelarmor.client}, and free to change in any release;
 * nothing an application writes against names these types.
 */
@NullMarked
package dev.modelarmor.client.internal.transport;

import org.jspecify.annotations.NullMarked;
