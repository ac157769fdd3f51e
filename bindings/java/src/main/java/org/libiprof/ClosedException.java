package org.libiprof;

/** A use of a model, reader, writer or diff (or of what it handed out) after its {@code close()}. */
public final class ClosedException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    ClosedException(String what) {
        super(what + " is closed");
    }
}
