/**
 * Google credentials for Model Armor calls: loading, request authorization and project id resolution.
 */
@NullMarked
package dev.modelarmor.auth;

import org.jspecify.annotations.NullMarked;
