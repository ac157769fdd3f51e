package org.libiprof;

/**
 * Thrown by a reader callback to stop the read quietly: the read returns
 * with {@link ReadResult#stopped()} true instead of failing.
 */
public final class StopRead extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** A request to stop the read. */
    public StopRead() {
        super("read stopped", null, false, false);
    }
}
