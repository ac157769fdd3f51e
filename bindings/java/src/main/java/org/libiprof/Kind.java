package org.libiprof;

/** The six kinds of profile entries ({@code enum iprof_kind}), numbered as in C. */
public enum Kind {
    /** callCountProfiles: records {@code [count]}. */
    CALL_COUNT("callCountProfiles"),
    /** conditionalProfiles: records {@code [bci, index, count]*}. */
    CONDITIONAL("conditionalProfiles"),
    /** virtualInvokeProfiles: records {@code [type id, count]*}. */
    VIRTUAL_INVOKE("virtualInvokeProfiles"),
    /** monitorProfiles: context "0:0", records {@code [type id, count]*}. */
    MONITOR("monitorProfiles"),
    /** samplingProfiles: records {@code [count]}. */
    SAMPLING("samplingProfiles"),
    /** instanceofProfiles (or GraalVM's instanceOfProfiles): records {@code [type id, count]*}. */
    INSTANCEOF("instanceofProfiles");

    private static final Kind[] ALL = values();
    private final String key;

    Kind(String key) {
        this.key = key;
    }

    /** {@return the JSON key of the section, "callCountProfiles"} */
    public String key() {
        return key;
    }

    /** {@return the C value, 0 .. 5} */
    public int code() {
        return ordinal();
    }

    /**
     * The kind of a C value.
     * @param code 0 .. 5
     * @return the kind
     * @throws IllegalArgumentException for another value
     */
    public static Kind of(int code) {
        if (code < 0 || code >= ALL.length) {
            throw new IllegalArgumentException("unknown kind " + code);
        }
        return ALL[code];
    }
}
