package dev.modelarmor.architecture.internal;

/**
 * An internal type, for the architecture test's fixtures.
 */
public class Plumbing {

}
