/*
 * Suspending extensions over the asynchronous APIs of the Model Armor client and of the screening layer: a
 * coroutine that calls them is suspended, not a thread blocked, while a call or a retry wait is in flight, and
 * cancelling the coroutine cancels the call.
 */
@file:JvmName("ModelArmorCoroutines")

package dev.modelarmor.kotlin

import dev.modelarmor.client.DataItem
import dev.modelarmor.client.ModelArmorOperations
import dev.modelarmor.client.SanitizationResult
import dev.modelarmor.client.SanitizeOptions
import dev.modelarmor.screening.ModelArmorScreening
import dev.modelarmor.screening.ScreeningDecision
import dev.modelarmor.screening.ScreeningRequest
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.asExecutor
import kotlinx.coroutines.future.await

/**
 * Screens and decides, as [ModelArmorScreening.screenAsync] does, suspending until the decision is made: over
 * the starter's client no thread is held while a call or a retry wait is in flight. Cancelling the coroutine
 * cancels the calls in flight. The client's retry deadline bounds the wait.
 *
 * ```
 * when (val decision = screening.awaitScreen(ScreeningRequest.prompt("ChatService.chat", prompt))) {
 *     is ScreeningDecision.Refusal -> throw decision.exception()
 *     else -> model.chat(prompt)
 * }
 * ```
 */
suspend fun ModelArmorScreening.awaitScreen(request: ScreeningRequest): ScreeningDecision =
    screenAsync(request).await()

/**
 * Screens a user prompt, suspending until Model Armor answered (after Google's retry strategy); a failure is
 * thrown as the blocking call throws it. A client without a non-blocking path runs on [Dispatchers.IO].
 */
suspend fun ModelArmorOperations.awaitSanitizeUserPrompt(
    prompt: String,
    options: SanitizeOptions = SanitizeOptions.NONE,
): SanitizationResult = awaitSanitizeUserPrompt(DataItem.text(prompt), options)

/**
 * Screens a user prompt item (text or a file), as [awaitSanitizeUserPrompt] of a string does.
 */
suspend fun ModelArmorOperations.awaitSanitizeUserPrompt(
    prompt: DataItem,
    options: SanitizeOptions = SanitizeOptions.NONE,
): SanitizationResult = sanitizeUserPromptAsync(prompt, options, Dispatchers.IO.asExecutor()).await()

/**
 * Screens a model response with the prompt that produced it (or `null`), suspending until Model Armor
 * answered, as [awaitSanitizeUserPrompt] does.
 */
suspend fun ModelArmorOperations.awaitSanitizeModelResponse(
    response: String,
    userPrompt: String? = null,
    options: SanitizeOptions = SanitizeOptions.NONE,
): SanitizationResult =
    sanitizeModelResponseAsync(DataItem.text(response), userPrompt, options, Dispatchers.IO.asExecutor()).await()
