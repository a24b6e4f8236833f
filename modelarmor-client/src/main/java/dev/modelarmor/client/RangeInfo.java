package dev.modelarmor.client;

/**
 * A half-open range {@code [start, end)} in the screened content.
 *
 * @param start the first index; 0 when absent
 * @param end the index after the last one; 0 when absent
 */
public record RangeInfo(long start, long end) {

}
