package org.libiprof;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * A profile entry as a streaming read delivers it: valid during the
 * callback only (a use afterwards throws {@link IllegalStateException});
 * copy what you keep ({@link #records()}, {@link #frames()}).
 */
public final class EntryEvent {
    private final Kind kind;
    private final MemorySegment frames;
    private final int frameCount;
    private final MemorySegment records;
    private final int recordCount;
    private Arena viewArena;
    private boolean valid = true;

    EntryEvent(Kind kind, MemorySegment frames, long frameCount, MemorySegment records, long recordCount) {
        this.kind = kind;
        this.frameCount = Math.toIntExact(frameCount);
        this.recordCount = Math.toIntExact(recordCount);
        this.frames = frames.reinterpret(frameCount * 16);
        this.records = records.reinterpret(recordCount * 8);
    }

    private void live() {
        if (!valid) {
            throw new IllegalStateException("an EntryEvent used after its callback returned; copy what you keep");
        }
    }

    void end() {
        valid = false;
        if (viewArena != null) {
            viewArena.close();
        }
    }

    /** {@return the entry's kind} */
    public Kind kind() {
        return kind;
    }

    /** {@return the number of frames of its context} */
    public int frameCount() {
        return frameCount;
    }

    /**
     * {@return frame i}
     * @param i 0 .. frameCount() - 1; 0 is the callee
     */
    public Frame frame(int i) {
        live();
        return new Frame(frames.getAtIndex(ValueLayout.JAVA_LONG, 2L * i),
                         frames.getAtIndex(ValueLayout.JAVA_LONG, 2L * i + 1));
    }

    /** {@return the frames of its context, callee first (a copy)} */
    public List<Frame> frames() {
        List<Frame> out = new ArrayList<>(frameCount);
        for (int i = 0; i < frameCount; i++) {
            out.add(frame(i));
        }
        return out;
    }

    /** {@return its context as ctx text, "5:0&lt;3:2"} */
    public String ctx() {
        return Frame.format(frames());
    }

    /** {@return the number of records} */
    public int recordCount() {
        return recordCount;
    }

    /**
     * {@return record i}
     * @param i 0 .. recordCount() - 1
     */
    public long record(int i) {
        live();
        return records.getAtIndex(ValueLayout.JAVA_LONG, i);
    }

    /** {@return a copy of the records} */
    public long[] records() {
        live();
        return records.toArray(ValueLayout.JAVA_LONG);
    }

    /** {@return the records without a copy: read-only, unusable once the callback returned} */
    public MemorySegment recordsView() {
        live();
        if (viewArena == null) {
            viewArena = Arena.ofConfined();
        }
        return records.reinterpret(viewArena, null).asReadOnly();
    }
}
