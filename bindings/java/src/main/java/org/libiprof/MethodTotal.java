package org.libiprof;

/**
 * The summed totals of the entries whose callee is a method ({@link Model#methodTotals}).
 * @param methodId the method id
 * @param total the sum of its entries' totals, saturating
 */
public record MethodTotal(long methodId, long total) {
}
