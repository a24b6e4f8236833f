/**
 * The verdict cache: verdicts of screened text kept in a Spring {@code Cache}, signed so that a value written
 * by anyone without the signing key is never used, and bounded so that a slow or failing cache never fails a
 * screening. {@link dev.modelarmor.screening.cache.VerdictCache} with its
 * {@link dev.modelarmor.screening.cache.VerdictCache.Settings}, the
 * {@link dev.modelarmor.screening.cache.VerdictSigningKeys} and the
 * {@link dev.modelarmor.screening.cache.VerdictCacheObserver} told of every lookup.
 */
@NullMarked
package dev.modelarmor.screening.cache;

import org.jspecify.annotations.NullMarked;
