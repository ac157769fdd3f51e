package org.libiprof;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandle;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The one table of descriptors (Fn), the handles the binding creates (Native) and the Native
 * Image metadata in the jar list exactly the same functions and descriptors.
 */
class TableTest {
    @Test
    void nativeLinksOneHandlePerRowAndNothingElse() throws Exception {
        Set<String> fields = new TreeSet<>();
        for (Field f : Native.class.getDeclaredFields()) {
            if (f.getType() == MethodHandle.class) {
                assertTrue(Modifier.isStatic(f.getModifiers()) && Modifier.isFinal(f.getModifiers()), f.getName());
                fields.add(f.getName());
            }
        }
        Set<String> rows = new TreeSet<>();
        for (Fn fn : Fn.values()) {
            rows.add(fn.name());
        }
        assertEquals(rows, fields);
        assertEquals(EnumSet.allOf(Fn.class), Native.linked());
        // Nothing but Native creates handles or stubs.
        Path src = Support.SOURCE.resolve("bindings/java/src/main/java/org/libiprof");
        try (Stream<Path> files = Files.list(src)) {
            for (Path p : files.toList()) {
                String text = Files.readString(p);
                boolean makes = text.contains(".downcallHandle(") || text.contains(".upcallStub(");
                assertEquals(p.getFileName().toString().equals("Native.java"), makes, p.toString());
            }
        }
    }

    @Test
    void everyRowIsAnExportedFunction() throws IOException {
        String map = Files.readString(Support.SOURCE.resolve("lib/libiprof.map"));
        for (Fn fn : Fn.values()) {
            assertTrue(map.contains(" " + fn.symbol + ";"), fn.symbol + " is not in lib/libiprof.map");
        }
    }

    @Test
    void jarMetadataIsTheTable() throws IOException {
        String jar = System.getProperty("iprof.test.jar");
        org.junit.jupiter.api.Assumptions.assumeTrue(jar != null, "no jar given (iprof.test.jar)");
        String inJar;
        try (JarFile j = new JarFile(jar); InputStream in = j.getInputStream(j.getEntry(Metadata.RESOURCE))) {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            in.transferTo(b);
            inJar = b.toString(StandardCharsets.UTF_8);
        }
        assertEquals(Metadata.json(), inJar);
        @SuppressWarnings("unchecked")
        Map<String, Object> foreign = (Map<String, Object>) ((Map<String, Object>) Support.Json.parse(inJar)).get("foreign");
        assertEquals(Set.of("downcalls", "upcalls"), foreign.keySet());
        // Each distinct (descriptor, options) of the table once, and nothing else.
        List<String> got = new ArrayList<>();
        for (Object o : (List<?>) foreign.get("downcalls")) {
            @SuppressWarnings("unchecked")
            Map<String, Object> d = (Map<String, Object>) o;
            got.add(shape(d.get("parameterTypes") + "->" + d.get("returnType"), d.containsKey("options")));
            if (d.containsKey("options")) {
                assertEquals(Map.of("critical", Map.of("allowHeapAccess", true)), d.get("options"));
            }
        }
        assertEquals(got.size(), new LinkedHashSet<>(got).size(), "no registration twice");
        Set<String> wantJson = new LinkedHashSet<>();
        for (Fn fn : Fn.values()) {
            wantJson.add(shape(json(fn.descriptor), fn.critical));
        }
        assertEquals(wantJson, new LinkedHashSet<>(got));
        Set<String> wantUp = new LinkedHashSet<>();
        for (Fn.Up u : Fn.Up.values()) {
            wantUp.add(json(u.descriptor));
        }
        List<String> gotUp = new ArrayList<>();
        for (Object o : (List<?>) foreign.get("upcalls")) {
            @SuppressWarnings("unchecked")
            Map<String, Object> d = (Map<String, Object>) o;
            gotUp.add(d.get("parameterTypes") + "->" + d.get("returnType"));
        }
        assertEquals(new ArrayList<>(wantUp), gotUp);
    }

    private static String json(java.lang.foreign.FunctionDescriptor d) {
        List<String> params = d.argumentLayouts().stream().map(Metadata::layout).toList();
        return params + "->" + d.returnLayout().map(Metadata::layout).orElse("void");
    }

    private static String shape(String descriptor, boolean critical) {
        return descriptor + (critical ? " critical" : "");
    }

    @Test
    void everyUpcallDescriptorIsUsed() {
        // Streaming with every callback, a stream source and sink, every filter predicate and map.
        try (Model m = Model.load(Support.FIB)) {
            new Reader().read(new java.io.ByteArrayInputStream(m.toBytes()), new Callbacks()
                    .onType((a, b) -> { }).onMethod(x -> { }).onEntry(x -> { })
                    .onUnknown((a, b) -> { }).onKey((a, b) -> { }).onVersion(x -> { }));
            m.write(new ByteArrayOutputStream(), WriteOptions.defaults());
            m.filter(FilterOptions.defaults().withKeepType(t -> true).withKeepFrame((a, b) -> true));
            m.mapRecords(Kind.CALL_COUNT, (e, r) -> null);
        }
        assertEquals(EnumSet.allOf(Fn.Up.class), Native.upcallsMade());
    }
}
