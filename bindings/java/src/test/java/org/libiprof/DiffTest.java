package org.libiprof;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Comparing profiles: what each lacks, overlap, changes, staleness. */
class DiffTest {
    @Test
    void selfAndScaledCopyAreNotStale() {
        try (Model a = Model.load(Support.FIB); Model b = Model.load(Support.FIB)) {
            b.scale(3, null, Rounding.NEAREST_AWAY);
            try (Diff d = a.diff(b, 5)) {
                assertEquals(0.0, d.staleness());
                assertEquals(10, d.methodCommonCount(Diff.Side.A));
                assertEquals(List.of(), d.methodsOnly(Diff.Side.B));
                assertEquals(54, d.total(Diff.Side.A, Kind.CALL_COUNT));
                assertEquals(162, d.total(Diff.Side.B, Kind.CALL_COUNT));
                assertEquals(1.0, d.overlap(Diff.Side.A, Kind.CALL_COUNT));
                assertEquals(List.of(), d.changes(Kind.CALL_COUNT));
            }
        }
    }

    @Test
    void aRemovedEntryShows() {
        try (Model a = Model.load(Support.FIB); Model b = Model.load(Support.FIB)) {
            assertTrue(b.removeEntry(Kind.CALL_COUNT, Frame.parse("6:0<3:14")));
            try (Diff d = a.diff(b, 5)) {
                assertEquals(1, d.contextOnlyCount(Diff.Side.A, Kind.CALL_COUNT));
                assertEquals(8, d.contextCommonCount(Diff.Side.A, Kind.CALL_COUNT));
                assertEquals(44, d.commonTotal(Diff.Side.A, Kind.CALL_COUNT));
                assertEquals(44.0 / 54, d.overlap(Diff.Side.A, Kind.CALL_COUNT));
                Diff.Change c = d.changes(Kind.CALL_COUNT).get(0);
                assertEquals("java.lang.Thread.sleep:0 < Fib.fibonacci:14", c.context());
                assertEquals(10, c.countA());
                assertEquals(0, c.countB());
                assertEquals(null, c.entryB());
                assertEquals(10, c.entryA().record(0));
                assertEquals(-1.0, c.relative());
                // Total variation distance of the call counts: half of |10/54| plus the others'
                // gain 10/54 spread over 44: 10/54; the other kinds are unchanged (0).
                assertEquals(10.0 / 54, d.staleness(Kind.CALL_COUNT), 1e-12);
                assertEquals(0.0, d.staleness(Kind.SAMPLING));
                assertTrue(Double.isFinite(d.staleness()) && d.staleness() > 0);
            }
        }
    }

    @Test
    void anAddedMethodAndEntryShowFromTheirSide() {
        try (Model a = Model.load(Support.FIB); Model b = Model.load(Support.FIB)) {
            assertTrue(b.removeEntry(Kind.CALL_COUNT, Frame.parse("6:0<3:14")));
            b.addType(100, "Z");
            b.addMethod(100, "zz", 100, 100);
            b.addEntry(Kind.CALL_COUNT, List.of(Frame.of(100, 0)), 20);
            try (Diff d = a.diff(b, 5)) {
                assertEquals(List.of(100L), d.methodsOnly(Diff.Side.B).stream().map(Method::id).toList());
                assertEquals(List.of(), d.methodsOnly(Diff.Side.A));
                assertEquals(10, d.methodCommonCount(Diff.Side.B));
                assertEquals(1, d.contextOnlyCount(Diff.Side.B, Kind.CALL_COUNT));
                assertEquals(8, d.contextCommonCount(Diff.Side.B, Kind.CALL_COUNT));
                assertEquals(64, d.total(Diff.Side.B, Kind.CALL_COUNT));
                assertEquals(44, d.commonTotal(Diff.Side.B, Kind.CALL_COUNT));
                assertEquals(44.0 / 64, d.overlap(Diff.Side.B, Kind.CALL_COUNT));
                List<Diff.Change> ch = d.changes(Kind.CALL_COUNT);
                assertEquals(5, ch.size(), "top 5 of the 10 changed");
                Diff.Change added = ch.get(0);
                assertEquals("Z.zz:0", added.context(), "described by B's model, which has it");
                assertEquals(null, added.entryA());
                assertEquals(20, added.entryB().record(0));
                assertEquals(0, added.countA());
                assertEquals(20, added.countB());
                assertEquals(0.0, added.shareA());
                assertEquals(20.0 / 64, added.shareB());
                assertEquals(20.0 / 64, added.delta());
                assertEquals(Double.POSITIVE_INFINITY, added.relative());
                Diff.Change kept = ch.get(2);
                assertEquals("java.io.PrintStream.print:0 < Fib.fibonacci:34", kept.context());
                assertEquals(10.0 / 54, kept.shareA());
                assertEquals(10.0 / 64, kept.shareB());
                assertEquals(10.0 / 64 - 10.0 / 54, kept.delta(), 1e-15);
                // Half the L1 distance: (20/64 + 10/54 + 7 * (10/54 - 10/64) ... ) / 2 = 20/64.
                assertEquals(20.0 / 64, d.staleness(Kind.CALL_COUNT), 1e-12);
                assertEquals(0.0, d.staleness(Kind.MONITOR));
                assertEquals(20.0 / 64 / 6, d.staleness(), 1e-12, "the mean over the six kinds");
            }
        }
        try (Model a = new Model(); Model b = new Model(); Diff d = a.diff(b, 0)) {
            assertTrue(Double.isNaN(d.overlap(Diff.Side.A, Kind.CALL_COUNT)), "no count mass");
            assertTrue(Double.isNaN(d.staleness(Kind.CALL_COUNT)), "neither side has count mass");
            assertEquals(0, d.total(Diff.Side.A, Kind.CALL_COUNT));
        }
    }
}
