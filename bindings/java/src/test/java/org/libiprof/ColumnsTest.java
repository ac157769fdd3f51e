package org.libiprof;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * Model.columns: a kind's entries as read-only segments of the C model's arrays, exact values,
 * every column against the per-entry accessors (tests/data and the corpus), and what a change or
 * a close does to columns and segments taken before.
 */
@SuppressWarnings("try")
class ColumnsTest {
    static final Path SMALL = Support.SOURCE.resolve("tests/data/small-1.1.0.iprof");

    private static long[] longs(MemorySegment s) {
        return s.toArray(ValueLayout.JAVA_LONG);
    }

    private static long sum(MemorySegment s) {
        long t = 0;
        for (long i = 0; i < s.byteSize() / 8; i++) {
            t += s.getAtIndex(ValueLayout.JAVA_LONG, i);
        }
        return t;
    }

    /** Every column of every kind is what the per-entry accessors give. */
    private static void matchesEntries(Model m) {
        for (Kind k : Kind.values()) {
            Columns c = m.columns(k);
            List<Entry> entries = m.entries(k);
            assertEquals(entries.size(), c.count(), k.key());
            MemorySegment off = c.offsets();
            MemorySegment foff = c.frameOffsets();
            assertEquals((c.count() + 1L) * 8, off.byteSize());
            assertEquals((c.count() + 1L) * 8, foff.byteSize());
            assertEquals(0, off.getAtIndex(ValueLayout.JAVA_LONG, 0));
            assertEquals(0, foff.getAtIndex(ValueLayout.JAVA_LONG, 0));
            List<Long> records = new ArrayList<>();
            List<Long> frames = new ArrayList<>();
            for (int i = 0; i < c.count(); i++) {
                Entry e = entries.get(i);
                long[] want = e.records();
                assertArrayEquals(want, longs(c.entryRecords(i)), k.key() + " entry " + i);
                assertEquals(want.length, off.getAtIndex(ValueLayout.JAVA_LONG, i + 1L)
                        - off.getAtIndex(ValueLayout.JAVA_LONG, i));
                long[] pairs = e.context().framePairs();
                assertArrayEquals(pairs, longs(c.entryFrames(i)), k.key() + " frames of entry " + i);
                assertEquals(e.context(), c.context(i));
                for (long r : want) {
                    records.add(r);
                }
                for (long f : pairs) {
                    frames.add(f);
                }
            }
            assertEquals(records, boxed(longs(c.records())), k.key() + " records");
            assertEquals(frames, boxed(longs(c.frames())), k.key() + " frames");
            assertEquals(records.size(), c.recordCount());
            assertEquals(frames.size(), 2 * c.frameCount());
            assertEquals(c.recordCount(), off.getAtIndex(ValueLayout.JAVA_LONG, c.count()));
            assertEquals(c.frameCount(), foff.getAtIndex(ValueLayout.JAVA_LONG, c.count()));
            assertTrue(c.records().isReadOnly() && c.offsets().isReadOnly() && c.frames().isReadOnly()
                    && c.frameOffsets().isReadOnly());
        }
    }

    private static List<Long> boxed(long[] v) {
        List<Long> out = new ArrayList<>(v.length);
        for (long x : v) {
            out.add(x);
        }
        return out;
    }

    @Test
    void exactValuesOfTheSmallFile() {
        try (Model m = Model.load(SMALL)) {
            Columns c = m.columns(Kind.CALL_COUNT);
            assertEquals(Kind.CALL_COUNT, c.kind());
            assertEquals(4, c.count());
            assertEquals(4, c.recordCount());
            assertEquals(7, c.frameCount());
            assertArrayEquals(new long[] {1, 7, Long.MAX_VALUE, 5}, longs(c.records()));
            assertArrayEquals(new long[] {0, 1, 2, 3, 4}, longs(c.offsets()));
            assertArrayEquals(new long[] {1, 0, 2, 0, 1, 4, 3, 0, 2, 2, 1, 4, 3, 0}, longs(c.frames()));
            assertArrayEquals(new long[] {0, 1, 3, 6, 7}, longs(c.frameOffsets()));
            assertEquals("3:0<2:2<1:4", c.context(2).toString());
            assertArrayEquals(new long[] {3, 0, 2, 2, 1, 4}, longs(c.entryFrames(2)));
            // int64 wraps as in C: 1 + 7 + (2^63 - 1) + 5.
            assertEquals(Long.MIN_VALUE + 12, sum(c.records()));

            Columns cond = m.columns(Kind.CONDITIONAL);
            assertEquals(2, cond.count());
            assertArrayEquals(new long[] {-1, 0, 10, 8, 1, 3}, longs(cond.records()));
            assertArrayEquals(new long[] {0, 6, 6}, longs(cond.offsets()));
            assertEquals(0, cond.entryRecords(1).byteSize(), "an entry without records");
            assertArrayEquals(new long[] {2, 2, 1, 4, 3, 1}, longs(cond.frames()));
            assertArrayEquals(new long[] {0, 2, 3}, longs(cond.frameOffsets()));
            assertEquals(21, sum(cond.records()));
            assertArrayEquals(new long[] {3, 4, 2, 6}, longs(m.columns(Kind.VIRTUAL_INVOKE).records()));
            assertArrayEquals(new long[] {0, 0}, longs(m.columns(Kind.MONITOR).frames()), "the monitor's 0:0");
            assertArrayEquals(new long[] {2, 1}, longs(m.columns(Kind.SAMPLING).records()));
            assertArrayEquals(new long[] {3, 5}, longs(m.columns(Kind.INSTANCEOF).records()));
            assertThrows(IndexOutOfBoundsException.class, () -> cond.context(2));
            assertThrows(IndexOutOfBoundsException.class, () -> cond.entryRecords(-1));
            assertThrows(IllegalArgumentException.class, // read-only
                    () -> cond.records().setAtIndex(ValueLayout.JAVA_LONG, 0, 1));
            assertEquals("Columns(conditionalProfiles: 2 entries, 6 records, 3 frames)", cond.toString());
            matchesEntries(m);
        }
    }

    @Test
    void emptyKind() {
        try (Model m = new Model(); Model small = Model.load(SMALL)) {
            for (Kind k : Kind.values()) {
                Columns c = m.columns(k);
                assertTrue(c.isEmpty());
                assertEquals(0, c.recordCount());
                assertEquals(0, c.frameCount());
                assertEquals(0, c.records().byteSize());
                assertEquals(0, c.frames().byteSize());
                assertArrayEquals(new long[] {0}, longs(c.offsets()));
                assertArrayEquals(new long[] {0}, longs(c.frameOffsets()));
                assertThrows(IndexOutOfBoundsException.class, () -> c.context(0));
            }
            small.filter(FilterOptions.defaults().withKeepEntry(e -> e.kind() != Kind.SAMPLING));
            Columns c = small.columns(Kind.SAMPLING);
            assertEquals(0, c.count());
            assertArrayEquals(new long[] {0}, longs(c.offsets()));
            assertEquals(4, small.columns(Kind.CALL_COUNT).count(), "other kinds keep theirs");
        }
    }

    @Test
    void corpusColumnsAreTheEntries() {
        Path f = Support.corpus("jsonata-cli-0.4.0.iprof");
        try (Model m = Model.load(f)) {
            matchesEntries(m);
            // Sums and frame counts by Python's json over the file (as tests/test_columns.c).
            long[] want = {29253155013L, 23871476887L, 192601011L, 115997104L, 1071L, 0L};
            long[] entries = {8785, 6560, 508, 1, 161, 0};
            long[] records = {8785, 40545, 1144, 32, 161, 0};
            long[] frames = {31789, 20841, 1363, 1, 3950, 0};
            for (Kind k : Kind.values()) {
                Columns c = m.columns(k);
                int i = k.ordinal();
                assertEquals(want[i], sum(c.records()), k.key());
                assertEquals(entries[i], c.count(), k.key());
                assertEquals(records[i], c.recordCount(), k.key());
                assertEquals(frames[i], c.frameCount(), k.key());
            }
        }
    }

    @Test
    void aChangeMakesColumnsStale() {
        try (Model m = Model.load(SMALL)) {
            Columns c = m.columns(Kind.CONDITIONAL);
            MemorySegment records = c.records();
            MemorySegment frames = c.frames();
            MemorySegment slice = c.entryRecords(0);
            Columns other = m.columns(Kind.CALL_COUNT);
            MemorySegment otherRecords = other.records();
            m.scale(2, Kind.CONDITIONAL, Rounding.FLOOR);
            assertThrows(IllegalStateException.class, () -> records.getAtIndex(ValueLayout.JAVA_LONG, 0));
            assertThrows(IllegalStateException.class, () -> frames.getAtIndex(ValueLayout.JAVA_LONG, 0));
            assertThrows(IllegalStateException.class, () -> slice.getAtIndex(ValueLayout.JAVA_LONG, 0));
            assertThrows(StaleException.class, c::records);
            assertThrows(StaleException.class, c::count);
            assertThrows(StaleException.class, () -> c.context(0));
            assertFalse(c.valid());
            assertEquals("Columns(invalid)", c.toString());
            assertTrue(other.valid(), "columns of other kinds stay valid");
            assertEquals(Long.MIN_VALUE + 12, sum(otherRecords));
            Columns again = m.columns(Kind.CONDITIONAL);
            assertNotSame(c, again, "a change makes new columns");
            assertSame(again, m.columns(Kind.CONDITIONAL), "kept until the next change");
            assertArrayEquals(new long[] {-1, 0, 20, 8, 1, 6}, longs(again.records()));
            // Every kind of change: an addition, a removal, records set.
            m.addEntry(Kind.CONDITIONAL, List.of(Frame.of(1, 7)), 3, 0, 4);
            assertThrows(IllegalStateException.class, () -> again.records().getAtIndex(ValueLayout.JAVA_LONG, 0));
            Columns added = m.columns(Kind.CONDITIONAL);
            assertArrayEquals(new long[] {-1, 0, 20, 8, 1, 6, 3, 0, 4}, longs(added.records()));
            assertArrayEquals(new long[] {2, 2, 1, 4, 3, 1, 1, 7}, longs(added.frames()));
            MemorySegment kept = added.offsets();
            m.setEntryRecords(Kind.CONDITIONAL, List.of(Frame.of(1, 7)), 3, 0, 9);
            assertThrows(IllegalStateException.class, () -> kept.getAtIndex(ValueLayout.JAVA_LONG, 0));
            assertArrayEquals(new long[] {-1, 0, 20, 8, 1, 6, 3, 0, 9}, longs(m.columns(Kind.CONDITIONAL).records()));
            MemorySegment beforeRemove = m.columns(Kind.CONDITIONAL).records();
            m.removeEntry(Kind.CONDITIONAL, List.of(Frame.of(1, 7)));
            assertThrows(IllegalStateException.class, () -> beforeRemove.getAtIndex(ValueLayout.JAVA_LONG, 0));
            assertEquals(34, sum(m.columns(Kind.CONDITIONAL).records()));
            MemorySegment beforeMap = m.columns(Kind.CONDITIONAL).records();
            m.mapRecords(Kind.CONDITIONAL, (e, r) -> null);
            assertThrows(IllegalStateException.class, () -> beforeMap.getAtIndex(ValueLayout.JAVA_LONG, 0));
            matchesEntries(m);
        }
    }

    @Test
    void closeMakesColumnsUnusable() {
        Model m = Model.load(SMALL);
        Columns c = m.columns(Kind.CALL_COUNT);
        MemorySegment records = c.records();
        MemorySegment offsets = c.offsets();
        assertEquals(7, records.getAtIndex(ValueLayout.JAVA_LONG, 1));
        m.close();
        assertThrows(IllegalStateException.class, () -> records.getAtIndex(ValueLayout.JAVA_LONG, 1));
        assertThrows(IllegalStateException.class, () -> offsets.getAtIndex(ValueLayout.JAVA_LONG, 1));
        assertThrows(ClosedException.class, c::records);
        assertThrows(ClosedException.class, () -> c.context(0));
        assertThrows(ClosedException.class, () -> m.columns(Kind.CALL_COUNT));
        assertFalse(c.valid());
    }

    /**
     * Threads that take the first view of a kind at once share one arena, so a change closes
     * every view they took (a racing creation must not leave one in an arena nobody closes).
     */
    @Test
    void columnsTakenOnSeveralThreadsAllGoStale() throws Exception {
        int threads = 4;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try (Model m = Model.load(SMALL)) {
            for (int round = 0; round < 100; round++) {
                CyclicBarrier start = new CyclicBarrier(threads);
                List<Future<MemorySegment>> got = new ArrayList<>();
                Entry first = m.entryAt(Kind.SAMPLING, 0);
                for (int t = 0; t < threads; t++) {
                    boolean columns = t % 2 == 0;
                    got.add(pool.submit(() -> {
                        start.await();
                        return columns ? m.columns(Kind.SAMPLING).records() : first.recordsView();
                    }));
                }
                List<MemorySegment> views = new ArrayList<>();
                for (Future<MemorySegment> f : got) {
                    views.add(f.get());
                }
                for (MemorySegment v : views) {
                    assertEquals(2, v.getAtIndex(ValueLayout.JAVA_LONG, 0));
                }
                m.scale(1, Kind.SAMPLING, Rounding.FLOOR);
                for (MemorySegment v : views) {
                    assertThrows(IllegalStateException.class, () -> v.getAtIndex(ValueLayout.JAVA_LONG, 0),
                            "round " + round);
                }
            }
        } finally {
            pool.shutdown();
        }
    }
}
