package org.libiprof;

/**
 * The probability GraalVM gives the successor of a branch at a bci.
 * @param bci the successor's bci
 * @param probability its probability
 */
public record BranchProbability(long bci, double probability) {
}
