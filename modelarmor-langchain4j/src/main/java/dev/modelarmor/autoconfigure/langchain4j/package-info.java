/**
 * Auto-configuration of the Model Armor LangChain4j integration.
 */
@NullMarked
package dev.modelarmor.autoconfigure.langchain4j;

import org.jspecify.annotations.NullMarked;
