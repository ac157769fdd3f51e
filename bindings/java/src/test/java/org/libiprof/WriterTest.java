package org.libiprof;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Writing to paths, streams and memory; layouts and versions; streaming writes. */
class WriterTest {
    @TempDir
    Path tmp;

    @Test
    void everySinkWritesTheSameBytes() throws Exception {
        try (Model m = Model.load(Support.FIB)) {
            byte[] mem = m.toBytes();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            m.write(out, WriteOptions.defaults().withBufferSize(64));
            assertArrayEquals(mem, out.toByteArray());
            Path p = tmp.resolve("out.iprof");
            m.write(p, WriteOptions.defaults());
            assertArrayEquals(mem, Files.readAllBytes(p));
            if (Iprof.gzipSupported()) {
                Path gz = tmp.resolve("out.iprof.gz");
                m.write(gz, WriteOptions.defaults().withSync(false));
                byte[] z = Files.readAllBytes(gz);
                assertEquals(0x1f, z[0] & 0xff);
                assertEquals(0x8b, z[1] & 0xff);
                try (Model again = Model.load(gz)) {
                    assertArrayEquals(mem, again.toBytes());
                }
                assertArrayEquals(z, m.toBytes(WriteOptions.defaults().withGzip(true)), "the same bytes for any sink");
            }
            String pretty = new String(m.toBytes(WriteOptions.defaults().withPretty(true)), StandardCharsets.UTF_8);
            assertTrue(pretty.lines().count() > 20);
            String v04 = new String(m.toBytes(WriteOptions.defaults().withFormatVersion("0.4.0")
                    .withDropInstanceof(true)), StandardCharsets.UTF_8);
            assertTrue(v04.startsWith("{\"version\":\"0.4.0\",\"types\":"), v04);
            // 0.2.0 has no sampling (and no instanceof) section: filter them out first.
            IprofException e = org.junit.jupiter.api.Assertions.assertThrows(IprofException.class,
                    () -> m.toBytes(WriteOptions.defaults().withFormatVersion(Iprof.FORMAT_0_2_0)));
            assertEquals(Status.EVERSION, e.status());
            m.filter(FilterOptions.defaults().withKinds(java.util.EnumSet.of(Kind.CALL_COUNT, Kind.CONDITIONAL,
                    Kind.VIRTUAL_INVOKE, Kind.MONITOR)));
            String legacy = new String(m.toBytes(WriteOptions.defaults().withFormatVersion(Iprof.FORMAT_0_2_0)),
                                       StandardCharsets.UTF_8);
            assertTrue(legacy.contains("\"hotnessPoints\""), legacy);
        }
    }

    @Test
    void streamingWrite() {
        byte[] doc;
        try (Writer w = Writer.toMemory(WriteOptions.defaults())) {
            w.begin("1.0.0");
            w.type(0, "A");
            w.type(1, "void");
            w.method(1, "run", 0, 1);
            w.entry(Kind.CALL_COUNT, List.of(Frame.of(1, 0)), 42);
            w.unknown("extra", "{}");
            w.end();
            doc = w.bytes();
        }
        try (Model m = Model.load(doc, ReadOptions.defaults().withStrict(true))) {
            assertEquals("1.0.0", m.version());
            assertEquals(42, m.findEntry(Kind.CALL_COUNT, "1:0").record(0));
            assertEquals(List.of(new UnknownKey("extra", "{}")), m.unknownKeys());
        }
        Path p = tmp.resolve("never.iprof");
        try (Writer w = Writer.toPath(p, WriteOptions.defaults())) {
            w.begin(null);
        }
        assertFalse(Files.exists(p), "a path writer that did not end leaves nothing");
    }
}
