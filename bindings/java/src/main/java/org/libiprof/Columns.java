package org.libiprof;

import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;

/**
 * The entries of one kind as columns ({@link Model#columns}; C:
 * {@code iprof_model_get_columns}): every record in one segment with offsets,
 * and each entry's context as its frames in one segment with offsets. Entry
 * i is {@code model.entryAt(kind, i)}. The segments are read-only views of
 * the arrays the C model keeps, without a copy:
 *
 * <ul>
 * <li>{@link #records()}: every record, entry after entry, as
 *     {@code JAVA_LONG}s ({@code recordCount()} values);</li>
 * <li>{@link #offsets()}: {@code count() + 1} {@code JAVA_LONG}s (C
 *     {@code uint64_t}, never negative here): entry i's records are those
 *     from index {@code offsets[i]} up to, not including,
 *     {@code offsets[i + 1]};</li>
 * <li>{@link #frames()}: the entries' contexts as (method id, bci) pairs of
 *     {@code JAVA_LONG}s, callee first, entry after entry
 *     ({@code 2 * frameCount()} values);</li>
 * <li>{@link #frameOffsets()}: {@code count() + 1} offsets in pairs: entry
 *     i's frames are pairs {@code frameOffsets[i]} up to
 *     {@code frameOffsets[i + 1]}.</li>
 * </ul>
 *
 * <pre>{@code
 * Columns c = model.columns(Kind.CONDITIONAL);
 * MemorySegment r = c.records();
 * long branches = 0;
 * for (long i = 2; i < c.recordCount(); i += 3) {   // [bci, index, count]*
 *     branches += r.getAtIndex(ValueLayout.JAVA_LONG, i);
 * }
 * }</pre>
 *
 * <p><b>Lifetime.</b> The C library frees the arrays at the next change to
 * entries of the kind, as it invalidates entries. The segments belong to
 * the arena of the kind's records views ({@link Entry#recordsView()}),
 * which the model closes at that change and at {@link Model#close()}:
 * reading a segment afterwards throws {@link IllegalStateException} from
 * the JVM itself, never reading freed memory, and this object's methods
 * throw {@link StaleException} (after a change) or {@link ClosedException}
 * (after the close). Take the columns again after a change: the next
 * {@code columns(kind)} builds them anew.
 */
public final class Columns {
    /** {@code struct iprof_columns}, version 1 (include/iprof/analysis.h). */
    static final StructLayout LAYOUT = MemoryLayout.structLayout(
            ValueLayout.JAVA_INT.withName("version"), ValueLayout.JAVA_INT.withName("kind"),
            ValueLayout.JAVA_LONG.withName("count"), ValueLayout.JAVA_LONG.withName("record_count"),
            ValueLayout.ADDRESS.withName("records"), ValueLayout.ADDRESS.withName("offsets"),
            ValueLayout.ADDRESS.withName("contexts"), ValueLayout.JAVA_LONG.withName("frame_count"),
            ValueLayout.ADDRESS.withName("frames"), ValueLayout.ADDRESS.withName("frame_offsets"));
    private static final int VERSION = 1;

    private final Model model;
    private final Kind kind;
    private final int gen;
    private final int count;
    private final long recordCount;
    private final long frameCount;
    private final MemorySegment records;
    private final MemorySegment offsets;
    private final MemorySegment contexts;
    private final MemorySegment frames;
    private final MemorySegment frameOffsets;

    private static long at(String member) {
        return LAYOUT.byteOffset(PathElement.groupElement(member));
    }

    private static MemorySegment ptr(MemorySegment s, String member) {
        return s.get(ValueLayout.ADDRESS, at(member));
    }

    /** Fill the C struct and view its arrays in the kind's view arena (Model.view). */
    Columns(Model model, Kind kind, MemorySegment p) {
        this.model = model;
        this.kind = kind;
        this.gen = model.kindGen[kind.ordinal()];
        try (Arena a = Arena.ofConfined()) {
            MemorySegment s = a.allocate(LAYOUT);
            s.set(ValueLayout.JAVA_INT, at("version"), VERSION);
            int rc = (int) Native.MODEL_GET_COLUMNS.invokeExact(p, kind.code(), s);
            if (rc != 0) {
                throw new IprofException(Status.of(rc), "iprof_model_get_columns failed for " + kind.key());
            }
            long n = s.get(ValueLayout.JAVA_LONG, at("count"));
            count = Math.toIntExact(n);
            recordCount = s.get(ValueLayout.JAVA_LONG, at("record_count"));
            frameCount = s.get(ValueLayout.JAVA_LONG, at("frame_count"));
            records = model.view(kind, ptr(s, "records"), recordCount * 8);
            offsets = model.view(kind, ptr(s, "offsets"), (n + 1) * 8);
            contexts = model.view(kind, ptr(s, "contexts"), n * ValueLayout.ADDRESS.byteSize());
            frames = model.view(kind, ptr(s, "frames"), frameCount * 16);
            frameOffsets = model.view(kind, ptr(s, "frame_offsets"), (n + 1) * 8);
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /** Throws when the model closed or the kind's entries changed since. */
    private void check() {
        model.ptr();
        if (!current()) {
            throw new StaleException("these Columns were invalidated by a change to " + kind.key()
                    + "; take them again (Model.columns)");
        }
    }

    /** {@return the kind} */
    public Kind kind() {
        return kind;
    }

    /** {@return the number of entries} */
    public int count() {
        check();
        return count;
    }

    /** {@return true when the kind has no entries} */
    public boolean isEmpty() {
        return count() == 0;
    }

    /** {@return the number of records of all entries} */
    public long recordCount() {
        check();
        return recordCount;
    }

    /** {@return the number of frames of all entries' contexts} */
    public long frameCount() {
        check();
        return frameCount;
    }

    /** {@return every record, entry after entry: {@code recordCount()} {@code JAVA_LONG}s, read-only} */
    public MemorySegment records() {
        check();
        return records;
    }

    /** {@return {@code count() + 1} offsets in {@link #records()} ({@code JAVA_LONG}s), read-only} */
    public MemorySegment offsets() {
        check();
        return offsets;
    }

    /** {@return the frames, {@code 2 * frameCount()} {@code JAVA_LONG}s: (method id, bci) pairs, read-only} */
    public MemorySegment frames() {
        check();
        return frames;
    }

    /** {@return {@code count() + 1} offsets in {@link #frames()}, in pairs ({@code JAVA_LONG}s), read-only} */
    public MemorySegment frameOffsets() {
        check();
        return frameOffsets;
    }

    private void index(int i) {
        check();
        if (i < 0 || i >= count) {
            throw new IndexOutOfBoundsException("entry " + i + " of " + count);
        }
    }

    /**
     * {@return the records of entry i: a slice of {@link #records()}}
     * @param i 0 .. count() - 1
     */
    public MemorySegment entryRecords(int i) {
        index(i);
        long from = offsets.getAtIndex(ValueLayout.JAVA_LONG, i);
        long to = offsets.getAtIndex(ValueLayout.JAVA_LONG, i + 1L);
        return records.asSlice(from * 8, (to - from) * 8);
    }

    /**
     * {@return the frames of entry i, (method id, bci) pairs: a slice of {@link #frames()}}
     * @param i 0 .. count() - 1
     */
    public MemorySegment entryFrames(int i) {
        index(i);
        long from = frameOffsets.getAtIndex(ValueLayout.JAVA_LONG, i);
        long to = frameOffsets.getAtIndex(ValueLayout.JAVA_LONG, i + 1L);
        return frames.asSlice(from * 16, (to - from) * 16);
    }

    /**
     * {@return the context of entry i (a node of the model, as {@link Entry#context()} gives)}
     * @param i 0 .. count() - 1
     */
    public Context context(int i) {
        index(i);
        return model.context(contexts.getAtIndex(ValueLayout.ADDRESS, i));
    }

    /** {@return true while the kind's entries are those it was taken from} */
    boolean current() {
        return gen == model.kindGen[kind.ordinal()];
    }

    /** {@return false once its model is closed or the kind's entries changed} */
    public boolean valid() {
        return !model.isClosed() && current();
    }

    /** {@return "Columns(kind: N entries, N records, N frames)"} */
    @Override
    public String toString() {
        return valid() ? "Columns(" + kind.key() + ": " + count + " entries, " + recordCount + " records, "
                + frameCount + " frames)" : "Columns(invalid)";
    }
}
