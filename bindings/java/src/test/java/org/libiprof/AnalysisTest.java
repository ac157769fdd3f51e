package org.libiprof;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Branch probabilities, type shares and totals (analysis.h) on fixed records. */
class AnalysisTest {
    @Test
    void branchProbabilitiesOfFib() {
        try (Model m = Model.load(Support.FIB)) {
            // [20, 0, 10, 53, 1, 1]: index 0 ran 10 times, index 1 once.
            Entry e = m.findEntry(Kind.CONDITIONAL, "3:11");
            assertEquals(Optional.of(List.of(new BranchProbability(20, 10.0 / 11), new BranchProbability(53, 1.0 / 11))),
                         e.branchProbabilities());
            assertEquals(11, e.total());
        }
    }

    @Test
    void neverTakenAndSharedIndexes() {
        try (Model m = new Model()) {
            m.addType(0, "T");
            m.addType(1, "void");
            m.addMethod(1, "m", 0, 1);
            // Two successors, 6 and 4 of 10 runs.
            m.addEntry(Kind.CONDITIONAL, List.of(Frame.of(1, 0)), 17, 0, 6, 21, 1, 4);
            List<BranchProbability> p = m.findEntry(Kind.CONDITIONAL, "1:0").branchProbabilities().orElseThrow();
            assertEquals(List.of(new BranchProbability(17, 0.6), new BranchProbability(21, 0.4)), p);
            m.addEntry(Kind.CONDITIONAL, List.of(Frame.of(1, 1)), 17, 0, 0, 21, 1, 0);
            assertEquals(Optional.empty(), m.findEntry(Kind.CONDITIONAL, "1:1").branchProbabilities());
            m.addEntry(Kind.VIRTUAL_INVOKE, List.of(Frame.of(1, 2)), 0, 3, 1, 1);
            TypeShares s = m.findEntry(Kind.VIRTUAL_INVOKE, "1:2").typeShares();
            double left = 1 - Iprof.EXTREMELY_SLOW_PATH_PROBABILITY;
            assertEquals(List.of(new TypeShares.Share(0, left * 3 / 4), new TypeShares.Share(1, left * 1 / 4)),
                         s.shares());
            assertEquals(Iprof.EXTREMELY_SLOW_PATH_PROBABILITY, s.notRecorded());
            IprofException x = assertThrows(IprofException.class,
                    () -> m.findEntry(Kind.VIRTUAL_INVOKE, "1:2").branchProbabilities());
            assertEquals(Status.EINVAL, x.status());
            assertTrue(m.methodTotals(Kind.CONDITIONAL, 0).contains(new MethodTotal(1, 10)));
        }
    }

    @Test
    void typeSharesOfFib() {
        try (Model m = Model.load(Support.FIB)) {
            TypeShares s = m.entries(Kind.VIRTUAL_INVOKE).get(0).typeShares();
            assertEquals(1, s.shares().size());
            assertEquals(11, s.shares().get(0).typeId());
            assertEquals(0.9999990000000001, s.shares().get(0).share(), "(1 - eps) x 10 / 10, as GraalVM computes it");
            assertEquals(Iprof.EXTREMELY_SLOW_PATH_PROBABILITY, s.notRecorded());
        }
    }
}
