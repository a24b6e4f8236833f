/**
 * Managing Model Armor: {@link dev.modelarmor.client.admin.TemplateOperations templates} and
 * {@link dev.modelarmor.client.admin.FloorSettingOperations floor settings}, reached through
 * {@link dev.modelarmor.client.ModelArmorOperations#templates()} and
 * {@link dev.modelarmor.client.ModelArmorOperations#floorSettings()}, and the records that describe
 * them. Screening itself needs nothing from here.
 */
@NullMarked
package dev.modelarmor.client.admin;

import org.jspecify.annotations.NullMarked;
