/**
 * Google credentials for Model Armor calls: loading, request authorization and project id resolution, and
 * {@link dev.modelarmor.auth.ModelArmorCredentialsProvider}, with which an application supplies credentials of
 * its own.
 */
@NullMarked
package dev.modelarmor.auth;

import org.jspecify.annotations.NullMarked;
