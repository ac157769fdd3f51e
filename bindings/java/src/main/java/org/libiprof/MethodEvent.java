package org.libiprof;

/**
 * A method as a streaming read delivers it.
 * @param id the method id
 * @param name its name
 * @param signature declaring type id, return type id, parameter type ids (a copy)
 */
public record MethodEvent(long id, String name, long[] signature) {
}
