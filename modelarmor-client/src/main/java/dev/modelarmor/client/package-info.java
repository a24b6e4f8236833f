/**
 * The Model Armor client. What an application uses is public:
 * <ul>
 * <li>the operations, {@link dev.modelarmor.client.ModelArmorOperations}, and their REST implementation
 * {@link dev.modelarmor.client.ModelArmorTemplate}, built with
 * {@link dev.modelarmor.client.ModelArmorTemplate#builder()} (or by the auto-configuration) from an
 * {@link dev.modelarmor.client.ModelArmorEndpoint}, {@link dev.modelarmor.client.HttpTimeouts} and a
 * {@link dev.modelarmor.client.ModelArmorCallObserver};</li>
 * <li>the model of a sanitize call: {@link dev.modelarmor.client.DataItem} and
 * {@link dev.modelarmor.client.SanitizeOptions} in, {@link dev.modelarmor.client.SanitizationResult} with
 * its {@link dev.modelarmor.client.FilterResult}s out;</li>
 * <li>the exceptions, {@link dev.modelarmor.client.ModelArmorException} and its subclasses.</li>
 * </ul>
 * The calls, the JSON mapping and the request and answer bodies that only travel live in
 * {@code dev.modelarmor.client.internal}, the HTTP transport (requests bounded by the retry deadline, answers
 * bounded in size) in {@code dev.modelarmor.client.internal.transport}: neither is an API. Managing templates and
 * floor settings lives in {@link dev.modelarmor.client.admin}.
 */
@NullMarked
package dev.modelarmor.client;

import org.jspecify.annotations.NullMarked;
