package org.libiprof;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Exceptions carry the C report: status, message, offset, line, column, JSON path, ids. */
class ErrorTest {
    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void schemaErrorHasItsPosition() {
        IprofException e = assertThrows(IprofException.class,
                () -> Model.load(b("{\"version\": \"1.0.0\", \"types\": [{\"id\": 0}], \"methods\": []}")));
        assertEquals(Status.ESCHEMA, e.status());
        assertEquals("type is missing \"name\"", e.errorMessage());
        assertEquals(1, e.line());
        assertEquals(32, e.column());
        assertEquals(31, e.offset());
        assertEquals("types[0]", e.path());
        assertNull(e.source());
        assertNull(e.kind());
        assertEquals("type is missing \"name\" at line 1, column 32, types[0] (IPROF_ESCHEMA)", e.getMessage());
    }

    @Test
    void syntaxErrorOnALaterLine() {
        IprofException e = assertThrows(IprofException.class,
                () -> Model.load(b("{\n  \"version\": \"1.0.0\",\n  \"types\": [,]\n}")));
        assertEquals(Status.ESYNTAX, e.status());
        assertEquals(3, e.line());
        assertEquals(13, e.column());
        assertEquals(36, e.offset());
    }

    @Test
    void missingFileNamesIt() {
        Path p = Path.of("/nonexistent/dir/x.iprof");
        IprofException e = assertThrows(IprofException.class, () -> Model.load(p));
        assertEquals(Status.EIO, e.status());
        assertEquals(p.toString(), e.source());
    }

    @Test
    void lenientDiagnosticsAndStrictFailure() {
        String doc = "{\"version\": \"1.0.0\", \"types\": [], \"methods\": [],"
                + " \"callCountProfiles\": [{\"ctx\": \"7:0\", \"records\": [1]}]}";
        try (Model m = Model.load(b(doc))) {
            assertEquals(1, m.diagnostics().size());
            Report d = m.diagnostics().get(0);
            assertEquals(Status.EDANGLING, d.status());
            assertEquals("callCountProfiles[0].ctx", d.path());
        }
        IprofException e = assertThrows(IprofException.class,
                () -> Model.load(b(doc), ReadOptions.defaults().withStrict(true)));
        assertEquals(Status.EDANGLING, e.status());
        assertEquals("callCountProfiles[0].ctx", e.path());
    }

    @Test
    void writerErrorsSayWhy() {
        try (Model m = Model.load(Support.FIB)) {
            IprofException e = assertThrows(IprofException.class,
                    () -> m.toBytes(WriteOptions.defaults().withFormatVersion("1.0.0")));
            assertEquals(Status.EVERSION, e.status());
            String older = new String(m.toBytes(WriteOptions.defaults().withFormatVersion("1.0.0")
                    .withDropInstanceof(true)), StandardCharsets.UTF_8);
            assertEquals(-1, older.indexOf("nstance"), "instanceof entries dropped for 1.0.0");
        }
        try (Writer w = Writer.toMemory(WriteOptions.defaults())) {
            w.begin(null);
            w.type(0, "A");
            IprofException e = assertThrows(IprofException.class, () -> w.type(0, "B"));
            assertEquals(Status.ESCHEMA, e.status());
            assertEquals(Status.ESCHEMA, assertThrows(IprofException.class, w::end).status(), "a failed writer stays failed");
        }
    }

    @Test
    void droppedDiagnosticsAreCountedBySeverity() {
        // Three unread keys (warnings) and two undefined methods (errors of a lenient load).
        String doc = "{\"version\": \"1.0.0\", \"types\": [{\"id\": 0, \"name\": \"A\", \"x\": 1},"
                + " {\"id\": 1, \"name\": \"B\", \"x\": 1}, {\"id\": 2, \"name\": \"C\", \"x\": 1}], \"methods\": [],"
                + " \"callCountProfiles\": [{\"ctx\": \"7:0\", \"records\": [1]}, {\"ctx\": \"8:0\", \"records\": [1]}]}";
        try (Model m = Model.load(b(doc), ReadOptions.defaults().withMaxDiagnostics(2))) {
            assertEquals(2, m.diagnostics().size());
            assertEquals(true, m.diagnostics().get(1).warning());
            assertEquals("types[1]", m.diagnostics().get(1).path());
            assertEquals(1, m.diagnosticsDroppedWarnings());
            assertEquals(2, m.diagnosticsDroppedErrors());
        }
        try (Model m = Model.load(b(doc))) {
            assertEquals(5, m.diagnostics().size());
            Report d = m.diagnostics().get(4);
            assertEquals(false, d.warning());
            assertEquals("method id 8 is not defined", d.message());
            assertEquals(206, d.column());
            assertEquals(0, m.diagnosticsDroppedWarnings() + m.diagnosticsDroppedErrors());
        }
        try (Reader r = new Reader(ReadOptions.defaults().withMaxDiagnostics(1))) {
            ReadResult res = r.read(b(doc), null);
            assertEquals(1, res.diagnostics().size());
            assertEquals(4, res.diagnosticsDropped(), "two warnings and two errors");
            assertEquals(res.diagnostics(), r.diagnostics());
        }
    }
}
