package org.libiprof;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real profiles of ../shared/corpus against independent numbers: `iprof stats`, `iprof
 * merge` and the Python binding, all run by the test. Skipped, saying so, without the corpus.
 */
class CorpusTest {
    @TempDir
    Path tmp;

    @ParameterizedTest
    @ValueSource(strings = {"jsonata-cli-0.4.0.iprof", "assorted-benchmarks-0.4.0.iprof",
                            "binary-tree-legacy-0.2.0.iprof", "elide-cli-types-only-0.4.0.iprof"})
    @SuppressWarnings("unchecked")
    void totalsAndHottestAsStatsSays(String name) throws Exception {
        Path f = Support.corpus(name);
        Map<String, Object> stats = Support.stats(f);
        try (Model m = Model.load(f)) {
            assertEquals(stats.get("version"), m.version());
            assertEquals(stats.get("types"), (long) m.typeCount());
            assertEquals(stats.get("methods"), (long) m.methodCount());
            Map<String, Object> entries = (Map<String, Object>) stats.get("entries");
            Map<String, Object> totals = (Map<String, Object>) stats.get("totals");
            for (Kind k : Kind.values()) {
                if (!entries.containsKey(k.key())) {
                    assertEquals(0, m.entryCount(k));
                    continue;
                }
                assertEquals(entries.get(k.key()), (long) m.entryCount(k), k.key());
                long sum = 0;
                long records = 0;
                for (Entry e : m.entries(k)) {
                    sum += e.total();
                    records += e.recordCount();
                }
                assertEquals(totals.get(k.key()), sum, k.key());
                assertTrue(records >= m.entryCount(k));
            }
            List<Map<String, Object>> hot = (List<Map<String, Object>>) stats.get("hottestMethods");
            List<MethodTotal> got = m.methodTotals(Kind.CALL_COUNT, hot.size());
            for (int i = 0; i < hot.size(); i++) {
                assertEquals(hot.get(i).get("id"), got.get(i).methodId(), name + " hottest #" + i);
                assertEquals(hot.get(i).get("callCount"), got.get(i).total(), name + " hottest #" + i);
            }
        }
    }

    @Test
    void aKnownBigCount() {
        try (Model m = Model.load(Support.corpus("assorted-benchmarks-0.4.0.iprof"))) {
            assertTrue(m.methodTotals(Kind.CALL_COUNT, 1).get(0).total() >= 23_929_230_826L);
            boolean found = false;
            for (Entry e : m.entries(Kind.CALL_COUNT)) {
                found |= e.record(0) == 23_929_230_826L;
            }
            assertTrue(found);
        }
    }

    @Test
    void mergeWithWeightsAsTheCommandDoes() throws Exception {
        Path a = Support.corpus("jsonata-cli-0.4.0.iprof");
        Path b = Support.corpus("assorted-benchmarks-0.4.0.iprof");
        Path out = tmp.resolve("merged.iprof");
        Support.run(List.of(Support.iprof(), "merge", "-w", a + "=2", "-w", b + "=0.5", "-o", out.toString(),
                            a.toString(), b.toString()), Map.of());
        byte[] mine;
        try (Model dst = new Model(); Model ma = Model.load(a); Model mb = Model.load(b)) {
            dst.merge(ma, 2);
            dst.merge(mb, 0.5);
            mine = dst.toBytes(WriteOptions.defaults().withCanonical(true));
        }
        assertArrayEquals(java.nio.file.Files.readAllBytes(out), mine);
        // The streaming merge gives the same model.
        try (Model dst = new Model()) {
            dst.mergeFrom(a, MergeOptions.defaults().withWeight(2), ReadOptions.defaults().withThreaded(true));
            dst.mergeFrom(java.nio.file.Files.readAllBytes(b), MergeOptions.defaults().withWeight(0.5),
                          ReadOptions.defaults());
            assertArrayEquals(mine, dst.toBytes(WriteOptions.defaults().withCanonical(true)));
        }
        // So does the model merge on a second thread.
        try (Model dst = new Model(); Model ma = Model.load(a); Model mb = Model.load(b)) {
            dst.merge(ma, MergeOptions.defaults().withWeight(2).withThreaded(true));
            dst.merge(mb, new MergeOptions(0.5, Rounding.NEAREST_AWAY, false, true));
            assertArrayEquals(mine, dst.toBytes(WriteOptions.defaults().withCanonical(true)));
        }
    }

    /** Branch probabilities and type shares of every entry, as the Python binding computes them. */
    @Test
    void probabilitiesAsThePythonBindingSays() throws Exception {
        Path f = Support.corpus("jsonata-cli-0.4.0.iprof");
        String script = String.join("\n",
                "import iprof, sys",
                "m = iprof.load(sys.argv[1])",
                "for e in m.conditional:",
                "    p = e.branch_probabilities()",
                "    print('C', e.ctx, ' '.join('%d=%r' % x for x in p) if p is not None else 'none')",
                "for e in m.virtual_invoke:",
                "    s, other = e.type_shares()",
                "    print('V', e.ctx, ' '.join('%d=%r' % x for x in s), repr(other))",
                "");
        Map<String, String> env = new HashMap<>();
        env.put("PYTHONPATH", Support.SOURCE.resolve("bindings/python").toString());
        List<String> cmd = List.of("python3", "-c", script, f.toString());
        String[] lines;
        try {
            lines = new String(Support.run(cmd, env), StandardCharsets.UTF_8).split("\n");
        } catch (java.io.IOException e) {
            System.out.println("SKIP: no python3 to compute the reference: " + e.getMessage());
            org.junit.jupiter.api.Assumptions.abort("no python3");
            return;
        }
        List<String> mine = new ArrayList<>();
        try (Model m = Model.load(f)) {
            for (Entry e : m.entries(Kind.CONDITIONAL)) {
                StringBuilder b = new StringBuilder("C " + e.context() + " ");
                var p = e.branchProbabilities();
                if (p.isEmpty()) {
                    b.append("none");
                } else {
                    List<String> parts = new ArrayList<>();
                    for (BranchProbability x : p.get()) {
                        parts.add(x.bci() + "=" + py(x.probability()));
                    }
                    b.append(String.join(" ", parts));
                }
                mine.add(b.toString());
            }
            for (Entry e : m.entries(Kind.VIRTUAL_INVOKE)) {
                TypeShares s = e.typeShares();
                List<String> parts = new ArrayList<>();
                for (TypeShares.Share x : s.shares()) {
                    parts.add(x.typeId() + "=" + py(x.share()));
                }
                mine.add("V " + e.context() + " " + String.join(" ", parts) + " " + py(s.notRecorded()));
            }
        }
        assertTrue(mine.size() > 1000, "the file has many conditional and virtual invoke entries");
        assertEquals(List.of(lines), mine);
    }

    /** Python's repr of a double: the shortest text that reads back, as Java's but for 1e-06 style. */
    private static String py(double d) {
        return Support.pyRepr(d);
    }
}
