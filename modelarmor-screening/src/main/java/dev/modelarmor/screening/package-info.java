/**
 * The screening layer between the client and the integrations: {@link dev.modelarmor.screening.ModelArmorScreening}
 * screens text and {@link dev.modelarmor.client.DataItem}s of any length, prompt or response, and returns a
 * {@link dev.modelarmor.screening.ScreeningDecision}. It owns windowing of long text, the verdict cache,
 * fail-open or fail-closed, the {@link dev.modelarmor.screening.ScreeningObserver} and the refusal exceptions
 * that {@code @ModelArmorGuarded} methods, the Spring AI integration and the web layer share.
 */
@NullMarked
package dev.modelarmor.screening;

import org.jspecify.annotations.NullMarked;
