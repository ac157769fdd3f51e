package org.libiprof;

import java.io.IOException;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The Native Image reachability metadata of the binding, generated from
 * {@link Fn}: the "foreign" section lists every distinct downcall
 * descriptor with its options and every upcall descriptor, as GraalVM's
 * reachability-metadata schema (1.2.0) and foreign-config schema (0.1.0)
 * describe them. The build runs {@link #main} and puts the file into the
 * jar under META-INF/native-image/org.libiprof/iprof/; a test compares
 * the jar's file with this class's output.
 */
final class Metadata {
    /** Where the file goes in the jar. */
    static final String RESOURCE = "META-INF/native-image/org.libiprof/iprof/reachability-metadata.json";

    private Metadata() {
    }

    /** The canonical layout name of a value layout, as native-image reads it. */
    static String layout(MemoryLayout l) {
        if (l.equals(ValueLayout.ADDRESS)) {
            return "void*";
        }
        if (l.equals(ValueLayout.JAVA_INT)) {
            return "jint";
        }
        if (l.equals(ValueLayout.JAVA_LONG)) {
            return "jlong";
        }
        if (l.equals(ValueLayout.JAVA_DOUBLE)) {
            return "jdouble";
        }
        throw new IllegalArgumentException("no canonical name for " + l);
    }

    static String descriptor(FunctionDescriptor d) {
        StringBuilder b = new StringBuilder("{\"returnType\": \"");
        b.append(d.returnLayout().map(Metadata::layout).orElse("void")).append("\", \"parameterTypes\": [");
        List<MemoryLayout> params = d.argumentLayouts();
        for (int i = 0; i < params.size(); i++) {
            b.append(i == 0 ? "" : ", ").append('"').append(layout(params.get(i))).append('"');
        }
        return b.append(']').toString();
    }

    /** The distinct downcall registrations of the table, in table order. */
    static Set<String> downcalls() {
        Set<String> out = new LinkedHashSet<>();
        for (Fn f : Fn.values()) {
            out.add(descriptor(f.descriptor)
                    + (f.critical ? ", \"options\": {\"critical\": {\"allowHeapAccess\": true}}}" : "}"));
        }
        return out;
    }

    /** The distinct upcall registrations of the table. */
    static Set<String> upcalls() {
        Set<String> out = new LinkedHashSet<>();
        for (Fn.Up u : Fn.Up.values()) {
            out.add(descriptor(u.descriptor) + "}");
        }
        return out;
    }

    /** {@return the whole file} */
    static String json() {
        StringBuilder b = new StringBuilder();
        b.append("{\n  \"comment\": \"Generated from org.libiprof.Fn by org.libiprof.Metadata: the downcall and upcall")
         .append(" descriptors of the libiprof binding. Do not edit.\",\n  \"foreign\": {\n    \"downcalls\": [\n");
        join(b, downcalls());
        b.append("    ],\n    \"upcalls\": [\n");
        join(b, upcalls());
        b.append("    ]\n  }\n}\n");
        return b.toString();
    }

    private static void join(StringBuilder b, Set<String> items) {
        int i = 0;
        for (String s : items) {
            b.append("      ").append(s).append(++i < items.size() ? ",\n" : "\n");
        }
    }

    /**
     * Write the file.
     * @param args the output path
     * @throws IOException when it cannot be written
     */
    public static void main(String[] args) throws IOException {
        Path out = Path.of(args[0]);
        Files.createDirectories(out.getParent());
        Files.writeString(out, json(), StandardCharsets.UTF_8);
    }
}
