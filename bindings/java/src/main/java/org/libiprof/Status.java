package org.libiprof;

/** The status codes of the C library ({@code enum iprof_status}), with their C values. */
public enum Status {
    /** IPROF_OK: success. */
    OK(0),
    /** IPROF_ENOMEM: an allocation failed. */
    ENOMEM(-1),
    /** IPROF_EIO: reading or writing the file, stream or callback failed. */
    EIO(-2),
    /** IPROF_ESYNTAX: the input is not well-formed JSON. */
    ESYNTAX(-3),
    /** IPROF_ESCHEMA: the JSON does not follow the iprof schema or its rules. */
    ESCHEMA(-4),
    /** IPROF_EVERSION: unsupported or mismatched format version. */
    EVERSION(-5),
    /** IPROF_EDANGLING: a method or type id is referenced but not defined. */
    EDANGLING(-6),
    /** IPROF_ELIMIT: a value exceeds a limit. */
    ELIMIT(-7),
    /** IPROF_EINVAL: invalid argument. */
    EINVAL(-8),
    /** IPROF_ESTOPPED: a callback asked to stop. */
    ESTOPPED(-9),
    /** IPROF_ESTATE: a call out of order. */
    ESTATE(-10),
    /** IPROF_ENOTFOUND: the requested element does not exist. */
    ENOTFOUND(-11);

    private final int code;

    Status(int code) {
        this.code = code;
    }

    /** {@return the C value of the status} */
    public int code() {
        return code;
    }

    /** {@return the C name, "IPROF_ESCHEMA"} */
    public String cName() {
        return "IPROF_" + name();
    }

    /**
     * The status of a C value.
     * @param code a C status code
     * @return its status
     * @throws IllegalArgumentException for a value that is no status
     */
    public static Status of(int code) {
        for (Status s : values()) {
            if (s.code == code) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown status " + code);
    }
}
