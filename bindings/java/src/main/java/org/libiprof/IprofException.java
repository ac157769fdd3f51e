package org.libiprof;

import java.util.List;

/**
 * A failed libiprof call: the C report (status, message, position, JSON
 * path, and for model operations the kind, context and ids it is about),
 * the file read or written when there is one, and for a failed read the
 * diagnostics it recorded before.
 */
public final class IprofException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient Report report;
    /** The file read or written, or null. */
    private final String source;
    private final transient List<Report> diagnostics;
    /** How many diagnostics were dropped beyond those kept. */
    private final long diagnosticsDropped;

    IprofException(Report report, String source, List<Report> diagnostics, long dropped) {
        super((source == null ? "" : source + ": ") + report);
        this.report = report;
        this.source = source;
        this.diagnostics = List.copyOf(diagnostics);
        this.diagnosticsDropped = dropped;
    }

    IprofException(Status status, String message) {
        this(new Report(status, false, message, 0, 0, 0, "", null, "", null, null), null, List.of(), 0);
    }

    /** {@return the whole C report} */
    public Report report() {
        return report;
    }

    /** {@return the status} */
    public Status status() {
        return report.status();
    }

    /** {@return the English message of the library, without position} */
    public String errorMessage() {
        return report.message();
    }

    /** {@return the byte offset in the input (0 without a position)} */
    public long offset() {
        return report.offset();
    }

    /** {@return the line, from 1 (0 without a position)} */
    public long line() {
        return report.line();
    }

    /** {@return the column in bytes, from 1 (0 without a position)} */
    public long column() {
        return report.column();
    }

    /** {@return the JSON path of the element, "types[0]" ("" for none)} */
    public String path() {
        return report.path();
    }

    /** {@return the kind a model error is about, or null} */
    public Kind kind() {
        return report.kind();
    }

    /** {@return the context a model error is about, as ctx text ("" for none)} */
    public String context() {
        return report.context();
    }

    /** {@return the type id a model error is about, or null} */
    public Long typeId() {
        return report.typeId();
    }

    /** {@return the method id a model error is about, or null} */
    public Long methodId() {
        return report.methodId();
    }

    /** {@return the file read or written, or null (bytes, streams, models)} */
    public String source() {
        return source;
    }

    /** {@return the diagnostics a failed read recorded before failing} */
    public List<Report> diagnostics() {
        return diagnostics;
    }

    /** {@return how many diagnostics the failed read found beyond those kept} */
    public long diagnosticsDropped() {
        return diagnosticsDropped;
    }
}
