/**
 * A real Redis for tests: Debian's redis-server started on a free loopback port.
 */
@NullMarked
package dev.modelarmor.testredis;

import org.jspecify.annotations.NullMarked;
