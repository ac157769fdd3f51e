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
}
