/**
 * {@link dev.modelarmor.guard.ModelArmorGuarded @ModelArmorGuarded}: screening of a method's prompt
 * before it runs and of its answer after, applied by a proxy without an AspectJ weaver.
 */
@NullMarked
package dev.modelarmor.guard;

import org.jspecify.annotations.NullMarked;
