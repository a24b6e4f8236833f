/**
 * Spring AI documents screened by Model Armor before they reach a prompt or a vector store:
 * {@link dev.modelarmor.ai.document.ModelArmorDocumentPostProcessor} for retrieval,
 * {@link dev.modelarmor.ai.document.ModelArmorVectorStore} for ingestion, both through
 * {@link dev.modelarmor.ai.document.ModelArmorDocumentScreener}.
 */
@NullMarked
package dev.modelarmor.ai.document;

import org.jspecify.annotations.NullMarked;
