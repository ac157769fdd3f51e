package org.libiprof;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The three verbs of the 1.0 API for taking things out: remove, filter (with predicates), prune. */
class TakeOutTest {
    private static Model samples(long... counts) {
        Model m = new Model();
        m.addType(0, "com.a.A");
        m.addType(1, "void");
        m.addMethod(1, "run", 0, 1);
        for (long c : counts) {
            m.addEntry(Kind.SAMPLING, List.of(Frame.of(1, c)), c);
        }
        return m;
    }

    private static List<Long> counts(Model m) {
        List<Long> out = new ArrayList<>();
        for (Entry e : m.entries(Kind.SAMPLING)) {
            out.add(e.record(0));
        }
        return out;
    }

    @Test
    void removeMethodCascadesOnlyWhenAsked() {
        try (Model m = samples(7, 5)) {
            assertTrue(m.removeMethod(1, false));
            assertNull(m.methodById(1));
            assertEquals(List.of(7L, 5L), counts(m), "without cascade the entries naming it stay");
            IprofException e = assertThrows(IprofException.class, m::toBytes);
            assertEquals(Status.EDANGLING, e.status());
            assertFalse(m.removeMethod(1, false));
            assertFalse(m.removeMethod(1, true), "no such method: nothing to remove");
        }
        try (Model m = Model.load(Support.FIB)) {
            // Fib.fibonacci (3) is a frame of 6 of the 9 call counts, both conditionals, the
            // virtual invoke, both samplings and the instanceof entry; not of the monitor's "0:0".
            assertTrue(m.removeMethod(3, true));
            assertEquals(List.of(3, 0, 0, 1, 0, 0),
                         List.of(Kind.values()).stream().map(m::entryCount).toList());
            assertEquals(List.of("1:0", "2:0<1:5", "7:0<2:1<1:5"),
                         m.entries(Kind.CALL_COUNT).stream().map(e -> e.context().toString()).toList());
        }
    }

    @Test
    void removeUnknownWithoutAKeyRemovesEvery() {
        try (Model m = Model.load(Support.FIB)) {
            m.addUnknown("a", "[1]");
            m.addUnknown("b", "{}");
            m.removeUnknown();
            assertEquals(List.of(), m.unknownKeys());
            m.removeUnknown();
            assertEquals(List.of(), m.unknownKeys(), "none kept: nothing to do");
            assertFalse(m.removeUnknown("a"));
        }
    }

    @Test
    void predicatesComeBeforeTheStatistics() {
        // Without 9, T = 15 and 50% of it is reached at 5: 7 and 5 stay. Were the top
        // percent taken first (T = 24, reached at 7: 9 and 7), the predicate would leave 7.
        try (Model m = samples(7, 5, 2, 9, 1)) {
            m.filter(FilterOptions.defaults().withKeepEntry(e -> e.record(0) != 9).withTopPercent(50));
            assertEquals(List.of(7L, 5L), counts(m));
        }
    }

    @Test
    void predicatesSeeEachElementOnceBeforeAnythingChanges() {
        try (Model m = Model.load(Support.FIB)) {
            Set<Frame> all = new LinkedHashSet<>();
            for (Kind k : Kind.values()) {
                for (Entry e : m.entries(k)) {
                    all.addAll(e.context().frames());
                }
            }
            assertEquals(22, all.size());
            List<Frame> judged = new ArrayList<>();
            List<Kind> entries = new ArrayList<>();
            m.filter(FilterOptions.defaults().withKinds(Set.of(Kind.CALL_COUNT, Kind.MONITOR))
                    .withKeepFrame((id, bci) -> judged.add(Frame.of(id, bci)))
                    .withKeepEntry(e -> entries.add(e.kind())));
            assertEquals(judged.size(), new LinkedHashSet<>(judged).size(), "each distinct frame once");
            // The distinct frames of the 9 call counts (16) and the monitor's "0:0".
            assertEquals(17, judged.size());
            assertTrue(judged.contains(Frame.of(0, 0)));
            assertEquals(10, entries.size(), "only the kinds kept are judged");
            assertEquals(List.of(9, 0, 0, 1, 0, 0), List.of(Kind.values()).stream().map(m::entryCount).toList());
        }
    }

    @Test
    void anExceptionFromAPredicateChangesNothing() {
        try (Model m = Model.load(Support.FIB)) {
            byte[] before = m.toBytes();
            RuntimeException boom = new RuntimeException("boom");
            int[] seen = {0};
            // The first entry is refused before the third throws: nothing may go all the same.
            assertSame(boom, assertThrows(RuntimeException.class, () -> m.filter(FilterOptions.defaults()
                    .withKeepEntry(e -> {
                        if (++seen[0] == 3) {
                            throw boom;
                        }
                        return seen[0] != 1;
                    }))));
            assertArrayEquals(before, m.toBytes());
            assertSame(boom, assertThrows(RuntimeException.class, () -> m.filter(FilterOptions.defaults()
                    .withKeepMethod(x -> false).withKeepType(t -> {
                        throw boom;
                    }))));
            assertArrayEquals(before, m.toBytes());
            assertSame(boom, assertThrows(RuntimeException.class, () -> m.filter(FilterOptions.defaults()
                    .withKinds(Set.of(Kind.SAMPLING)).withKeepFrame((id, bci) -> {
                        throw boom;
                    }))));
            assertArrayEquals(before, m.toBytes());
        }
    }

    @Test
    void methodAndTypePredicatesLeaveWhatNamesThem() {
        try (Model m = Model.load(Support.FIB)) {
            m.filter(FilterOptions.defaults().withKeepMethod(x -> x.id() != 6)
                    .withKeepType(t -> !t.name().equals("java.lang.Thread")));
            assertNull(m.methodById(6));
            assertNull(m.typeByName("java.lang.Thread"));
            assertEquals(9, m.entryCount(Kind.CALL_COUNT), "the entries naming method 6 stay");
            assertEquals(Status.EDANGLING, assertThrows(IprofException.class, m::toBytes).status());
            m.prune(Model.Prune.DANGLING);
            assertEquals(8, m.entryCount(Kind.CALL_COUNT));
            m.toBytes();
        }
    }

    @Test
    void pruneDanglingThenUnreferenced() {
        String doc = "{\"version\": \"1.0.0\", \"types\": [{\"id\": 0, \"name\": \"A\"}, {\"id\": 1, \"name\": \"U\"}],"
                + " \"methods\": [{\"id\": 1, \"name\": \"m\", \"signature\": [0, 9]},"
                + " {\"id\": 2, \"name\": \"n\", \"signature\": [0, 0]}, {\"id\": 3, \"name\": \"o\", \"signature\": [0, 0]}],"
                + " \"callCountProfiles\": [{\"ctx\": \"1:0\", \"records\": [1]}, {\"ctx\": \"2:0\", \"records\": [2]},"
                + " {\"ctx\": \"7:0<2:3\", \"records\": [3]}],"
                + " \"monitorProfiles\": [{\"ctx\": \"0:0\", \"records\": [9, 1, 0, 4]}]}";
        try (Model m = Model.load(doc.getBytes(StandardCharsets.UTF_8))) {
            assertEquals(3, m.diagnostics().size());
            m.prune();
            assertEquals(3, m.methodCount(), "nothing asked: nothing done");
            m.prune(Model.Prune.DANGLING);
            // Method 1 names the undefined type 9; then what names 1 or 7, or type 9, goes.
            assertEquals(List.of(2L, 3L), m.methods().stream().map(Method::id).toList());
            assertEquals("{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"A\"},{\"id\":1,\"name\":\"U\"}],"
                    + "\"methods\":[{\"id\":2,\"name\":\"n\",\"signature\":[0,0]},{\"id\":3,\"name\":\"o\","
                    + "\"signature\":[0,0]}],\"callCountProfiles\":[{\"ctx\":\"2:0\",\"records\":[2]}],"
                    + "\"conditionalProfiles\":[],\"virtualInvokeProfiles\":[],\"monitorProfiles\":[],"
                    + "\"samplingProfiles\":[]}", new String(m.toBytes(), StandardCharsets.UTF_8));
            m.prune(Model.Prune.METHODS, Model.Prune.TYPES);
            assertEquals(List.of(2L), m.methods().stream().map(Method::id).toList());
            assertEquals(List.of("A"), m.types().stream().map(Type::name).toList());
        }
    }
}
