package org.libiprof;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Uses after close and of stale elements throw; nothing reads freed memory. */
@SuppressWarnings("try")
class LifetimeTest {
    @Test
    void everythingThrowsAfterClose() {
        Model m = Model.load(Support.FIB);
        Type t = m.types().get(0);
        Method me = m.methods().get(0);
        Entry e = m.entries(Kind.CALL_COUNT).get(0);
        Context c = e.context();
        List<Entry> list = m.entries(Kind.CALL_COUNT);
        MemorySegment view = e.recordsView();
        assertEquals(e.record(0), view.getAtIndex(ValueLayout.JAVA_LONG, 0));
        m.close();
        m.close();
        assertThrows(ClosedException.class, m::version);
        assertThrows(ClosedException.class, t::name);
        assertThrows(ClosedException.class, me::id);
        assertThrows(ClosedException.class, e::records);
        assertThrows(ClosedException.class, c::toString);
        assertThrows(ClosedException.class, () -> list.get(0));
        assertThrows(IllegalStateException.class, () -> view.getAtIndex(ValueLayout.JAVA_LONG, 0));
        assertThrows(ClosedException.class, () -> m.addType(99, "X"));
        assertFalse(t.valid());
        assertEquals("Model(closed)", m.toString());

        Reader r = new Reader();
        r.close();
        assertThrows(ClosedException.class, () -> r.load(Support.FIB));
        Writer w = Writer.toMemory(WriteOptions.defaults());
        w.close();
        assertThrows(ClosedException.class, () -> w.begin(null));
        try (Model a = Model.load(Support.FIB)) {
            Diff d = a.diff(a, 0);
            d.close();
            assertThrows(ClosedException.class, d::staleness);
        }
        try (Model a = Model.load(Support.FIB); Model b = Model.load(Support.FIB)) {
            Diff d = a.diff(b, 0);
            b.close();
            assertThrows(ClosedException.class, d::staleness);
            d.close();
        }
    }

    @Test
    void changesMakeElementsStale() {
        try (Model m = Model.load(Support.FIB)) {
            Entry call = m.entries(Kind.CALL_COUNT).get(0);
            Entry cond = m.entries(Kind.CONDITIONAL).get(0);
            List<Entry> calls = m.entries(Kind.CALL_COUNT);
            Context ctx = call.context();
            MemorySegment view = call.recordsView();
            long before = call.record(0);
            m.addEntry(Kind.CALL_COUNT, List.of(Frame.of(3, 0)), 1000);
            assertThrows(StaleException.class, call::records);
            assertThrows(StaleException.class, () -> calls.get(0));
            assertThrows(IllegalStateException.class, () -> view.getAtIndex(ValueLayout.JAVA_LONG, 0));
            assertFalse(call.valid());
            assertTrue(cond.valid(), "entries of other kinds stay valid");
            assertEquals(before, m.findEntry(Kind.CALL_COUNT, ctx).record(0), "contexts live on");
            Type t = m.typeByName("Fib");
            Method x = m.methodById(1);
            m.addType(100, "New");
            assertEquals("Fib", t.name(), "additions invalidate nothing");
            m.removeType(100);
            assertThrows(StaleException.class, t::name);
            assertEquals("Fib.main", x.describe());
            assertTrue(m.removeMethod(x.id(), true));
            assertThrows(StaleException.class, x::name);
            m.canonicalize(true);
            assertThrows(StaleException.class, ctx::toString);
            assertThrows(StaleException.class, cond::records);
        }
    }

    @Test
    void visitRecordsSeesEveryRecordInPlace() {
        try (Model m = Model.load(Support.FIB)) {
            long[] sums = new long[6];
            MemorySegment[] kept = new MemorySegment[1];
            for (Kind k : Kind.values()) {
                m.visitRecords(k, (i, r) -> {
                    assertTrue(r.isReadOnly());
                    assertEquals(m.entries(k).get(i).recordCount() * 8L, r.byteSize());
                    for (long j = 0; j < r.byteSize() / 8; j++) {
                        sums[k.ordinal()] += r.getAtIndex(ValueLayout.JAVA_LONG, j);
                    }
                    kept[0] = r;
                });
            }
            long[] want = new long[6];
            for (Kind k : Kind.values()) {
                for (Entry e : m.entries(k)) {
                    for (long v : e.records()) {
                        want[k.ordinal()] += v;
                    }
                }
            }
            assertEquals(java.util.Arrays.toString(want), java.util.Arrays.toString(sums));
            assertThrows(IllegalStateException.class,
                    () -> m.visitRecords(Kind.CALL_COUNT, (i, r) -> m.scale(2, null, Rounding.FLOOR)));
            assertEquals(want[Kind.INSTANCEOF.ordinal()] > 0, kept[0].byteSize() > 0);
            m.addEntry(Kind.INSTANCEOF, List.of(Frame.of(3, 1)), 11, 1);
            assertThrows(IllegalStateException.class, () -> kept[0].getAtIndex(ValueLayout.JAVA_LONG, 0),
                         "a view of a changed kind is unusable");
        }
    }

    @Test
    void diffGoesStaleWhenAModelChanges() {
        try (Model a = Model.load(Support.FIB); Model b = Model.load(Support.FIB); Diff d = a.diff(b, 3)) {
            assertEquals(0.0, d.staleness());
            b.scale(2, null, Rounding.NEAREST_AWAY);
            assertThrows(StaleException.class, d::staleness);
        }
    }

    @Test
    void callbacksMayNotChangeOrCloseTheirModel() throws Exception {
        try (Model m = Model.load(Support.FIB)) {
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> m.filter(FilterOptions.defaults().withKeepEntry(x -> {
                        m.addType(500, "Z");
                        return true;
                    })));
            assertTrue(e.getMessage().contains("may not be changed"), e.getMessage());
            assertThrows(IllegalStateException.class, () -> m.mapRecords(Kind.CALL_COUNT, (x, r) -> {
                m.close();
                return null;
            }));
            assertEquals(9, m.entryCount(Kind.CALL_COUNT));
            byte[] data = Files.readAllBytes(Support.FIB);
            InputStream sneaky = new ByteArrayInputStream(data) {
                @Override
                public synchronized int read(byte[] b, int off, int len) {
                    m.version();
                    return super.read(b, off, len);
                }
            };
            assertThrows(IllegalStateException.class,
                    () -> m.mergeFrom(sneaky, MergeOptions.defaults(), ReadOptions.defaults()));
            assertEquals(9, m.entryCount(Kind.CALL_COUNT), "a failed merge changes nothing");
            assertEquals(10, m.findEntry(Kind.CALL_COUNT, "6:0<3:14").record(0));
        }
    }
}
