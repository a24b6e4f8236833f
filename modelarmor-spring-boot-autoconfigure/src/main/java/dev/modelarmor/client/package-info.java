/**
 * The Model Armor client: {@link dev.modelarmor.client.ModelArmorOperations}, its REST implementation
 * {@link dev.modelarmor.client.ModelArmorTemplate}, the typed sanitization results and the exceptions.
 */
@NullMarked
package dev.modelarmor.client;

import org.jspecify.annotations.NullMarked;
