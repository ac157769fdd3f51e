package org.libiprof;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Edits, merges with weights, scaling, filters and the canonical form. */
class EditTest {
    private static Model small() {
        Model m = new Model();
        m.addType(0, "com.a.A");
        m.addType(1, "void");
        m.addType(2, "com.b.B");
        m.addMethod(1, "run", 0, 1);
        m.addMethod(2, "go", 2, 1);
        for (long c : new long[] {7, 5, 2, 9, 1}) {
            m.addEntry(Kind.SAMPLING, List.of(Frame.of(1, c)), c);
        }
        return m;
    }

    private static List<Long> samples(Model m) {
        List<Long> out = new ArrayList<>();
        for (Entry e : m.entries(Kind.SAMPLING)) {
            out.add(e.record(0));
        }
        return out;
    }

    @Test
    void scaleRoundings() {
        long[][] want = {{4, 3, 1, 5, 1}, {4, 2, 1, 4, 0}, {3, 2, 1, 4, 0}};
        for (Rounding r : Rounding.values()) {
            try (Model m = small()) {
                m.scale(0.5, Kind.SAMPLING, r);
                assertEquals(List.of(want[r.ordinal()][0], want[r.ordinal()][1], want[r.ordinal()][2],
                                     want[r.ordinal()][3], want[r.ordinal()][4]), samples(m), r.name());
            }
        }
        try (Model m = small()) {
            IprofException e = assertThrows(IprofException.class, () -> m.scale(-1, null, Rounding.FLOOR));
            assertEquals(Status.EINVAL, e.status());
            assertEquals("weight negative: must be finite and >= 0", e.errorMessage());
            assertEquals(List.of(7L, 5L, 2L, 9L, 1L), samples(m));
        }
    }

    @Test
    void mergeWithWeights() {
        try (Model a = Model.load(Support.FIB); Model b = Model.load(Support.FIB)) {
            a.merge(b, 2.0);
            assertArrayEquals(new long[] {30}, a.findEntry(Kind.CALL_COUNT, "6:0<3:14").records());
            assertArrayEquals(new long[] {20, 0, 30, 53, 1, 3}, a.findEntry(Kind.CONDITIONAL, "3:11").records());
            a.merge(b, MergeOptions.defaults().withWeight(0.5).withRounding(Rounding.FLOOR));
            assertArrayEquals(new long[] {35}, a.findEntry(Kind.CALL_COUNT, "6:0<3:14").records());
            IprofException e = assertThrows(IprofException.class, () -> a.merge(b, Double.NaN));
            assertEquals("weight nan: must be finite and >= 0", e.errorMessage());
            assertArrayEquals(new long[] {35}, a.findEntry(Kind.CALL_COUNT, "6:0<3:14").records());
            assertThrows(IllegalArgumentException.class, () -> a.merge(a, 1));
        }
        try (Model dst = new Model()) {
            dst.mergeFrom(Support.FIB, MergeOptions.defaults().withWeight(3), ReadOptions.defaults());
            assertArrayEquals(new long[] {30}, dst.findEntry(Kind.CALL_COUNT, "6:0<3:14").records());
            assertEquals("1.1.0", dst.version());
        }
    }

    @Test
    void addSetRemoveAndErrors() {
        try (Model m = small()) {
            Entry e = m.addEntry(Kind.SAMPLING, List.of(Frame.of(1, 7)), 3);
            assertArrayEquals(new long[] {10}, e.records(), "combined with the entry of that context");
            e = m.setEntryRecords(Kind.SAMPLING, List.of(Frame.of(1, 7)), 4);
            assertArrayEquals(new long[] {4}, e.records());
            IprofException x = assertThrows(IprofException.class,
                    () -> m.setEntryRecords(Kind.SAMPLING, List.of(Frame.of(1, 99)), 1));
            assertEquals(Status.ENOTFOUND, x.status());
            assertEquals(Kind.SAMPLING, x.kind());
            assertEquals("1:99", x.context());
            x = assertThrows(IprofException.class, () -> m.addEntry(Kind.CALL_COUNT, List.of(Frame.of(7, 0)), 1));
            assertEquals(Status.EDANGLING, x.status());
            assertEquals(Long.valueOf(7), x.methodId());
            x = assertThrows(IprofException.class, () -> m.addMethod(3, "x", 5, 1));
            assertEquals(Status.EDANGLING, x.status());
            assertEquals(Long.valueOf(5), x.typeId());
            assertTrue(m.removeEntry(Kind.SAMPLING, List.of(Frame.of(1, 7))));
            assertFalse(m.removeEntry(Kind.SAMPLING, List.of(Frame.of(1, 7))));
            assertEquals(List.of(5L, 2L, 9L, 1L), samples(m));
            m.filter(FilterOptions.defaults().withKeepEntry(en -> en.record(0) > 2));
            assertEquals(List.of(5L, 9L), samples(m));
            m.mapRecords(Kind.SAMPLING, (en, r) -> new long[] {r[0] * 10});
            assertEquals(List.of(50L, 90L), samples(m));
            m.mapRecords(Kind.SAMPLING, (en, r) -> {
                r[0] += 1;
                return null;
            });
            assertEquals(List.of(51L, 91L), samples(m));
            assertThrows(IllegalArgumentException.class, () -> m.mapRecords(Kind.SAMPLING, (en, r) -> new long[0]));
            RuntimeException boom = new RuntimeException("boom");
            assertEquals(boom, assertThrows(RuntimeException.class, () -> m.mapRecords(Kind.SAMPLING, (en, r) -> {
                throw boom;
            })));
            assertEquals(List.of(51L, 91L), samples(m), "a failed mapRecords changes nothing");
            m.filter(FilterOptions.defaults().withKeepFrame((id, bci) -> bci != 9));
            assertEquals(List.of(51L), samples(m));
            assertTrue(m.removeMethod(1, true));
            assertEquals(0, m.entryCount(Kind.SAMPLING), "the cascade removed the entries naming it");
            assertNull(m.methodById(1));
            assertFalse(m.removeMethod(1, true));
            m.prune(Model.Prune.METHODS, Model.Prune.TYPES);
            assertEquals(0, m.methodCount());
            assertEquals(0, m.typeCount());
        }
    }

    @Test
    void retainTypesAndMethods() {
        try (Model m = small()) {
            m.filter(FilterOptions.defaults().withKeepMethod(x -> x.name().equals("go")));
            assertEquals(1, m.methodCount());
            assertEquals(5, m.entryCount(Kind.SAMPLING), "the entries naming a method that went stay");
            m.filter(FilterOptions.defaults().withKeepType(t -> !t.name().equals("com.a.A")));
            assertEquals(List.of("void", "com.b.B"), m.types().stream().map(Type::name).toList());
            assertTrue(m.removeType(2));
            assertFalse(m.removeType(2));
            assertTrue(m.removeMethod(2, false));
            assertFalse(m.removeMethod(2, false));
            assertTrue(Iprof.packageMatches("com.foo", "com.foo.impl.Baz$1"));
            assertFalse(Iprof.packageMatches("com.foo", "com.foobar.X"));
            assertFalse(Iprof.packageMatches("com.foo", "com.foo$X"));
        }
    }

    @Test
    void filterAndCanonicalForm() {
        try (Model m = Model.load(Support.FIB)) {
            byte[] canonicalWrite = m.toBytes(WriteOptions.defaults().withCanonical(true));
            m.canonicalize();
            assertArrayEquals(canonicalWrite, m.toBytes(), "canonical write = canonicalize + write");
            m.filter(FilterOptions.defaults().withKinds(Set.of(Kind.CALL_COUNT)).withMinCount(10));
            assertEquals(5, m.entryCount(Kind.CALL_COUNT));
            assertEquals(0, m.entryCount(Kind.CONDITIONAL));
            for (Entry e : m.entries(Kind.CALL_COUNT)) {
                assertEquals(10, e.record(0));
            }
            IprofException x = assertThrows(IprofException.class,
                    () -> m.filter(FilterOptions.defaults().withTopPercent(-1)));
            assertEquals(Status.EINVAL, x.status());
            assertEquals(5, m.entryCount(Kind.CALL_COUNT));
            assertThrows(IllegalArgumentException.class, () -> FilterOptions.defaults().withKinds(Set.of()));
        }
    }

    @Test
    void dropOptionsAndSalvage() {
        String doc = "{\"version\": \"1.0.0\", \"types\": [{\"id\": 0, \"name\": \"A\", \"x\": 2}],"
                + " \"methods\": []}";
        try (Model m = Model.load(doc.getBytes())) {
            assertEquals(1, m.unreadCount());
            IprofException e = assertThrows(IprofException.class, m::toBytes);
            assertEquals(Status.ESCHEMA, e.status());
            String out = new String(m.toBytes(WriteOptions.defaults().withDropUnknown(true)));
            assertEquals("{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"A\"}],\"methods\":[],"
                    + "\"callCountProfiles\":[],\"conditionalProfiles\":[],\"virtualInvokeProfiles\":[],"
                    + "\"monitorProfiles\":[],\"samplingProfiles\":[]}", out);
        }
        try (Model m = Model.load(Support.FIB); Model other = Model.load(Support.FIB)) {
            m.addUnknown("forkProfiles", "[{\"id\": 3}]");
            IprofException e = assertThrows(IprofException.class, () -> m.canonicalize());
            assertEquals(Status.ESCHEMA, e.status());
            assertTrue(e.errorMessage().contains("forkProfiles"), e.errorMessage());
            e = assertThrows(IprofException.class, () -> other.merge(m, 1));
            assertEquals(Status.ESCHEMA, e.status());
            other.merge(m, MergeOptions.defaults().withDropUnknown(true));
            assertEquals(List.of(), other.unknownKeys());
            m.canonicalize(true);
            assertEquals(List.of(), m.unknownKeys());
        }
        byte[] whole = m2bytes();
        byte[] cut = java.util.Arrays.copyOf(whole, whole.length * 2 / 3);
        assertThrows(IprofException.class, () -> Model.load(cut));
        try (Model m = Model.load(cut, ReadOptions.defaults().withSalvage(true))) {
            assertTrue(m.damage() != null, "the damage is reported");
            assertEquals(Status.ESYNTAX, m.damage().status());
            assertEquals(1455, m.damage().offset());
            assertEquals(39, m.damage().line());
            assertEquals("callCountProfiles[4]", m.damage().path());
            assertEquals(4, m.entryCount(Kind.CALL_COUNT), "the complete elements before it");
            m.prune(Model.Prune.DANGLING);
            m.toBytes();
        }
    }

    private static byte[] m2bytes() {
        try (Model m = Model.load(Support.FIB)) {
            return m.toBytes(WriteOptions.defaults().withPretty(true));
        }
    }
}
