/**
 * The client's calls and their JSON: each call's attempts, retries, deadline and observer, the answers read and
 * bounded, the API's errors translated, the template and floor-setting operations over REST, the request and
 * answer bodies that only travel, and the JSON mapping of the REST API with its native-image hints. Not an API:
 * public only for {@code dev.modelarmor.client}, and free to change in any release; nothing an application writes
 * against names these types.
 */
@NullMarked
package dev.modelarmor.client.internal;

import org.jspecify.annotations.NullMarked;
