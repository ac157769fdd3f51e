package org.libiprof;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/** Loading fib.iprof every way and what the model holds, against `iprof stats` and fixed values. */
class ModelTest {
    @Test
    void fibHoldsWhatStatsSays() throws Exception {
        try (Model m = Model.load(Support.FIB)) {
            assertEquals("1.1.0", m.version());
            assertEquals(17, m.typeCount());
            assertEquals(10, m.methodCount());
            assertEquals(26, m.contextCount(), "interned contexts: the 16 of entries and their callers");
            int[] counts = {9, 2, 1, 1, 2, 1};
            long[] totals = {54, 21, 10, 5, 11, 12};
            for (Kind k : Kind.values()) {
                assertEquals(counts[k.ordinal()], m.entryCount(k), k.key());
                long sum = 0;
                for (Entry e : m.entries(k)) {
                    sum += e.total();
                }
                assertEquals(totals[k.ordinal()], sum, k.key());
            }
            assertEquals(InstanceofKey.LOWER, m.instanceofKey());
            Map<String, Object> stats = Support.stats(Support.FIB);
            @SuppressWarnings("unchecked")
            Map<String, Object> st = (Map<String, Object>) stats.get("totals");
            for (Kind k : Kind.values()) {
                long sum = 0;
                for (Entry e : m.entries(k)) {
                    sum += e.total();
                }
                assertEquals(st.get(k.key()), sum, k.key());
            }
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> hot = (List<Map<String, Object>>) stats.get("hottestMethods");
            List<MethodTotal> got = m.methodTotals(Kind.CALL_COUNT, 0);
            assertEquals(hot.size(), got.size());
            for (int i = 0; i < hot.size(); i++) {
                assertEquals(hot.get(i).get("id"), got.get(i).methodId());
                assertEquals(hot.get(i).get("callCount"), got.get(i).total());
                assertEquals(hot.get(i).get("name"), m.methodById(got.get(i).methodId()).describe());
            }
        }
    }

    @Test
    void hottestMethodsFixed() {
        try (Model m = Model.load(Support.FIB)) {
            assertEquals(List.of(new MethodTotal(4, 10), new MethodTotal(5, 10), new MethodTotal(6, 10)),
                         m.methodTotals(Kind.CALL_COUNT, 3));
            assertEquals("java.io.PrintStream.print", m.methodById(4).describe());
        }
    }

    @Test
    void everySourceGivesTheSameModel() throws Exception {
        byte[] data = Files.readAllBytes(Support.FIB);
        ByteArrayOutputStream gz = new ByteArrayOutputStream();
        try (GZIPOutputStream z = new GZIPOutputStream(gz)) {
            z.write(data);
        }
        List<byte[]> outs = new ArrayList<>();
        try (Model a = Model.load(Support.FIB);
             Model b = Model.load(data);
             Model c = Model.load(new ByteArrayInputStream(data), ReadOptions.defaults().withChunkSize(100))) {
            for (Model m : List.of(a, b, c)) {
                outs.add(m.toBytes());
            }
        }
        if (!Iprof.gzipSupported()) {
            IprofException x = org.junit.jupiter.api.Assertions.assertThrows(IprofException.class,
                    () -> Model.load(gz.toByteArray()));
            assertEquals(Status.EIO, x.status(), "a library without zlib refuses gzip input");
        } else {
            try (Model d = Model.load(gz.toByteArray());
                 Model e = Model.load(new ByteArrayInputStream(gz.toByteArray()),
                                      ReadOptions.defaults().withStrict(true).withThreaded(true))) {
                outs.add(d.toBytes());
                outs.add(e.toBytes());
            }
        }
        byte[] tool = Support.run(List.of(Support.iprof(), "convert", Support.FIB.toString()), Map.of());
        for (byte[] o : outs) {
            assertArrayEquals(tool, o, "the bytes `iprof convert` writes");
        }
    }

    @Test
    void lookupsAndElements() {
        try (Model m = Model.load(Support.FIB)) {
            Type fib = m.typeByName("Fib");
            Type v = m.typeByName("void");
            Method f = m.methodFind("fibonacci", fib.id(), v.id());
            assertEquals(3, f.id());
            assertEquals("Fib.fibonacci", f.describe());
            assertEquals(fib, f.declaringType());
            assertEquals("void", f.returnType().name());
            assertEquals(List.of(), f.parameterTypes());
            assertEquals(f, m.methodById(3));
            assertNull(m.methodById(999));
            assertNull(m.typeByName("NoSuchType"));
            Entry hot = m.findEntry(Kind.CALL_COUNT, "6:0<3:14");
            assertArrayEquals(new long[] {10}, hot.records());
            Context c = hot.context();
            assertEquals("6:0<3:14", c.toString());
            assertEquals("java.lang.Thread.sleep:0 < Fib.fibonacci:14", c.describe());
            assertEquals(List.of(Frame.of(6, 0), Frame.of(3, 14)), c.frames());
            assertEquals(2, c.depth());
            assertEquals(6, c.methodId());
            assertEquals("3:14", c.caller().toString());
            assertNull(c.caller().caller());
            assertEquals(hot, m.findEntry(Kind.CALL_COUNT, c));
            Entry cond = m.entries(Kind.CONDITIONAL).get(0);
            assertEquals("3:11", cond.context().toString());
            assertArrayEquals(new long[] {20, 0, 10, 53, 1, 1}, cond.records());
            assertEquals(6, cond.recordCount());
            assertEquals(53, cond.record(3));
            assertEquals(53, cond.recordsView().getAtIndex(java.lang.foreign.ValueLayout.JAVA_LONG, 3));
            assertTrue(cond.recordsView().isReadOnly());
        }
    }

    @Test
    void unknownKeysAndSpelling() {
        try (Model m = Model.load(Support.FIB)) {
            m.addUnknown("ceConditionalProfilesV2", "[]");
            assertEquals(List.of(new UnknownKey("ceConditionalProfilesV2", "[]")), m.unknownKeys());
            String out = new String(m.toBytes(WriteOptions.defaults().withInstanceofKey(InstanceofKey.CAMEL)));
            assertTrue(out.contains("\"instanceOfProfiles\":"), out);
            assertTrue(out.endsWith(",\"ceConditionalProfilesV2\":[]}"), out);
            assertTrue(m.removeUnknown("ceConditionalProfilesV2"));
            assertEquals(List.of(), m.unknownKeys());
            m.setInstanceofKey(InstanceofKey.CAMEL);
            assertTrue(new String(m.toBytes()).contains("\"instanceOfProfiles\":"));
            assertEquals(0, m.unreadCount());
        }
    }
}
