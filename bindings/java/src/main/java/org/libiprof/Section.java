package org.libiprof;

/**
 * What a top-level key is, as {@link Callbacks#onKey} reports it: a profile
 * section (with its {@link #kind()}), or types, methods, the version or a
 * key the library does not know.
 */
public enum Section {
    /** callCountProfiles. */
    CALL_COUNT,
    /** conditionalProfiles. */
    CONDITIONAL,
    /** virtualInvokeProfiles. */
    VIRTUAL_INVOKE,
    /** monitorProfiles. */
    MONITOR,
    /** samplingProfiles. */
    SAMPLING,
    /** instanceofProfiles or instanceOfProfiles. */
    INSTANCEOF,
    /** "types". */
    TYPES,
    /** "methods". */
    METHODS,
    /** "version". */
    VERSION,
    /** a key the library does not know. */
    UNKNOWN;

    /** {@return the profile kind of a profile section, or null} */
    public Kind kind() {
        return ordinal() < 6 ? Kind.of(ordinal()) : null;
    }

    static Section of(int code) {
        return values()[code];
    }
}
