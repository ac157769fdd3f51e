package org.libiprof;

/**
 * A top-level key the library does not interpret, kept with its raw JSON value.
 * @param key the key
 * @param json its value exactly as the file held it
 */
public record UnknownKey(String key, String json) {
}
