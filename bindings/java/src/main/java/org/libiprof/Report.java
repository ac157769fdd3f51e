package org.libiprof;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
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

    static Report of(MemorySegment err) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment id = a.allocate(ValueLayout.JAVA_LONG);
            int st = (int) Native.ERROR_STATUS.invokeExact(err);
            int sev = (int) Native.ERROR_SEVERITY.invokeExact(err);
            String msg = Native.cstr((MemorySegment) Native.ERROR_MESSAGE.invokeExact(err));
            String path = Native.cstr((MemorySegment) Native.ERROR_PATH.invokeExact(err));
            long off = (long) Native.ERROR_OFFSET.invokeExact(err);
            long line = (long) Native.ERROR_LINE.invokeExact(err);
            long col = (long) Native.ERROR_COLUMN.invokeExact(err);
            int kind = (int) Native.ERROR_KIND.invokeExact(err);
            String ctx = Native.cstr((MemorySegment) Native.ERROR_CONTEXT.invokeExact(err));
            Long typeId = (int) Native.ERROR_TYPE_ID.invokeExact(err, id) == 0 ? id.get(ValueLayout.JAVA_LONG, 0) : null;
            Long methodId = (int) Native.ERROR_METHOD_ID.invokeExact(err, id) == 0
                    ? id.get(ValueLayout.JAVA_LONG, 0) : null;
            return new Report(Status.of(st), sev == 1, msg, off, line, col, path,
                              kind < 0 ? null : Kind.of(kind), ctx, typeId, methodId);
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
