package org.libiprof;

/**
 * A use of a type, method, context, entry or records view that a change to
 * its model invalidated (C: "entry pointers are valid until the next change
 * to entries of that kind"); look it up again.
 */
public final class StaleException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    StaleException(String message) {
        super(message);
    }
}
