package org.libiprof;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Streaming reads: per-kind callbacks (upcalls), stops, errors, streams. */
class StreamingTest {
    @Test
    void callbacksPerKind() throws Exception {
        Map<Kind, Integer> seen = new EnumMap<>(Kind.class);
        long[] calls = {0};
        List<String> conditional = new ArrayList<>();
        List<String> keys = new ArrayList<>();
        List<String> types = new ArrayList<>();
        List<String> methods = new ArrayList<>();
        try (Reader r = new Reader(ReadOptions.defaults().withStrict(true))) {
            ReadResult res = r.read(new ByteArrayInputStream(Files.readAllBytes(Support.FIB)), new Callbacks()
                    .onEntry(e -> seen.merge(e.kind(), 1, Integer::sum))
                    .onKind(Kind.CALL_COUNT, e -> {
                        seen.merge(e.kind(), 1, Integer::sum);
                        calls[0] += e.record(0);
                    })
                    .onKind(Kind.CONDITIONAL, e -> conditional.add(e.ctx() + " " + java.util.Arrays.toString(e.records())))
                    .onType((id, name) -> types.add(id + "=" + name))
                    .onMethod(m -> methods.add(m.id() + " " + m.name() + " " + m.signature().length))
                    .onKey((k, s) -> keys.add(k + ":" + s)));
            assertEquals("1.1.0", res.version());
            assertFalse(res.stopped());
            assertEquals(List.of(), res.diagnostics());
        }
        assertEquals(54, calls[0]);
        assertEquals(Map.of(Kind.CALL_COUNT, 9, Kind.VIRTUAL_INVOKE, 1, Kind.MONITOR, 1, Kind.SAMPLING, 2,
                            Kind.INSTANCEOF, 1), seen);
        assertEquals(List.of("3:11 [20, 0, 10, 53, 1, 1]", "5:1<4:2<3:34 [6, 0, 0, 9, 1, 10]"), conditional);
        assertEquals(17, types.size());
        assertEquals(10, methods.size());
        assertEquals(List.of("version:VERSION", "types:TYPES", "methods:METHODS", "callCountProfiles:CALL_COUNT",
                             "conditionalProfiles:CONDITIONAL", "virtualInvokeProfiles:VIRTUAL_INVOKE",
                             "monitorProfiles:MONITOR", "samplingProfiles:SAMPLING", "instanceofProfiles:INSTANCEOF"),
                     keys);
    }

    @Test
    void stopAndExceptions() {
        int[] n = {0};
        ReadResult res = new Reader().read(Support.FIB, new Callbacks().onKind(Kind.CALL_COUNT, e -> {
            if (++n[0] == 3) {
                throw new StopRead();
            }
        }));
        assertTrue(res.stopped());
        assertEquals(3, n[0]);
        RuntimeException boom = new RuntimeException("boom");
        assertSame(boom, assertThrows(RuntimeException.class,
                () -> new Reader().read(Support.FIB, new Callbacks().onType((id, name) -> {
                    throw boom;
                }))));
        EntryEvent[] kept = new EntryEvent[1];
        MemorySegment[] view = new MemorySegment[1];
        new Reader().read(Support.FIB, new Callbacks().onKind(Kind.SAMPLING, e -> {
            kept[0] = e;
            view[0] = e.recordsView();
            assertEquals(e.record(0), view[0].getAtIndex(ValueLayout.JAVA_LONG, 0));
        }));
        assertThrows(IllegalStateException.class, () -> kept[0].records());
        assertThrows(IllegalStateException.class, () -> view[0].getAtIndex(ValueLayout.JAVA_LONG, 0));
    }

    @Test
    void unknownKeysAndStreamFailures() {
        String doc = "{\"version\": \"1.0.0\", \"types\": [], \"methods\": [], \"x\": {\"a\": [1, 2]}}";
        List<String> unknown = new ArrayList<>();
        ReadResult res = new Reader().read(doc.getBytes(), new Callbacks().onUnknown((k, j) -> unknown.add(k + "=" + j)));
        assertEquals(List.of("x={\"a\": [1, 2]}"), unknown);
        assertEquals(1, res.diagnostics().size());
        assertTrue(res.diagnostics().get(0).warning());
        InputStream failing = new InputStream() {
            @Override
            public int read() throws IOException {
                throw new IOException("disk on fire");
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                throw new IOException("disk on fire");
            }
        };
        UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> Model.load(failing));
        assertEquals("disk on fire", e.getCause().getMessage());
    }
}
