package org.libiprof;

import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;

/**
 * A copy of one C report ({@code iprof_error}): status, message, position,
 * JSON path and, for model operations, what it is about. Exceptions and
 * diagnostics carry one; it is copied at once, as the C report lives only
 * until the handle's next operation.
 * @param status the status
 * @param warning true for a warning (IPROF_SEVERITY_WARNING)
 * @param message the English message
 * @param offset the byte offset in the input, from 0 (0 without a position)
 * @param line the line, from 1 (0 without a position)
 * @param column the column in bytes, from 1 (0 without a position)
 * @param path the JSON path, "methods[12].signature[1]" ("" for none)
 * @param kind the profile kind a model report is about, or null
 * @param context the context a model report is about, as ctx text ("" for none)
 * @param typeId the type id a model report is about, or null
 * @param methodId the method id a model report is about, or null
 */
public record Report(Status status, boolean warning, String message, long offset, long line, long column,
                     String path, Kind kind, String context, Long typeId, Long methodId) {

    /** {@code struct iprof_error_info} (include/iprof/iprof.h), filled by {@code iprof_error_get_info}. */
    static final StructLayout INFO = MemoryLayout.structLayout(
            ValueLayout.JAVA_INT.withName("version"), ValueLayout.JAVA_INT.withName("status"),
            ValueLayout.JAVA_INT.withName("severity"), ValueLayout.JAVA_INT.withName("kind"),
            ValueLayout.ADDRESS.withName("message"), ValueLayout.ADDRESS.withName("path"),
            ValueLayout.ADDRESS.withName("context"), ValueLayout.JAVA_LONG.withName("offset"),
            ValueLayout.JAVA_LONG.withName("line"), ValueLayout.JAVA_LONG.withName("column"),
            ValueLayout.JAVA_INT.withName("has_type_id"), ValueLayout.JAVA_INT.withName("has_method_id"),
            ValueLayout.JAVA_LONG.withName("type_id"), ValueLayout.JAVA_LONG.withName("method_id"));
    /** IPROF_ERROR_INFO_VERSION. */
    private static final int INFO_VERSION = 1;
    /** IPROF_SEVERITY_WARNING. */
    private static final int WARNING = 1;

    private static long at(String member) {
        return INFO.byteOffset(PathElement.groupElement(member));
    }

    /** The report {@code err} (not NULL) says, in one call. */
    static Report of(MemorySegment err) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment i = a.allocate(INFO);
            i.set(ValueLayout.JAVA_INT, at("version"), INFO_VERSION);
            int rc = (int) Native.ERROR_GET_INFO.invokeExact(err, i);
            if (rc != 0) {
                throw new IprofException(Status.of(rc), "iprof_error_get_info refused version " + INFO_VERSION);
            }
            int kind = i.get(ValueLayout.JAVA_INT, at("kind"));
            return new Report(Status.of(i.get(ValueLayout.JAVA_INT, at("status"))),
                    i.get(ValueLayout.JAVA_INT, at("severity")) == WARNING,
                    Native.cstr(i.get(ValueLayout.ADDRESS, at("message"))),
                    i.get(ValueLayout.JAVA_LONG, at("offset")), i.get(ValueLayout.JAVA_LONG, at("line")),
                    i.get(ValueLayout.JAVA_LONG, at("column")), Native.cstr(i.get(ValueLayout.ADDRESS, at("path"))),
                    kind < 0 ? null : Kind.of(kind), Native.cstr(i.get(ValueLayout.ADDRESS, at("context"))),
                    i.get(ValueLayout.JAVA_INT, at("has_type_id")) != 0 ? i.get(ValueLayout.JAVA_LONG, at("type_id")) : null,
                    i.get(ValueLayout.JAVA_INT, at("has_method_id")) != 0
                            ? i.get(ValueLayout.JAVA_LONG, at("method_id")) : null);
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /** {@return "message at line L, column C, path (IPROF_X)" as far as it applies} */
    @Override
    public String toString() {
        StringBuilder b = new StringBuilder(message);
        if (line > 0) {
            b.append(" at line ").append(line).append(", column ").append(column);
        }
        if (!path.isEmpty()) {
            b.append(line > 0 ? ", " : " at ").append(path);
        }
        return b.append(" (").append(status.cName()).append(')').toString();
    }
}
