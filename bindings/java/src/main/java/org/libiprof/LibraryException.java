package org.libiprof;

/**
 * libiprof could not be loaded or is not a version this binding supports.
 * The message says what was tried ({@link Iprof#libraryLocation()} names
 * what was loaded when it worked).
 */
public final class LibraryException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * A library error.
     * @param message what was tried and why it failed
     */
    public LibraryException(String message) {
        super(message);
    }
}
