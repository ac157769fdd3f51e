package org.libiprof;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/bindings.md's Java example is examples/MergeHottest.java, and run as the docs say (the jar
 * on the module path, the source launched directly) it prints the documented output and writes
 * what `iprof merge` writes.
 */
class DocsTest {
    @TempDir
    Path tmp;

    @Test
    void exampleIsDocumentedAndPrintsWhatTheDocsShow() throws Exception {
        String jar = System.getProperty("iprof.test.jar");
        String jdk = System.getProperty("iprof.test.jdk");
        assumeTrue(jar != null && jdk != null, "run by build.sh test (iprof.test.jar, iprof.test.jdk)");
        String docs = Files.readString(Support.SOURCE.resolve("docs/bindings.md"));
        String java = docs.substring(docs.indexOf("\n## Java\n"));
        Matcher code = Pattern.compile("\n```java\n(.*?)```\n", Pattern.DOTALL).matcher(java);
        assertEquals(true, code.find(), "docs/bindings.md has the Java example");
        Path example = Support.SOURCE.resolve("bindings/java/examples/MergeHottest.java");
        assertEquals(Files.readString(example), code.group(1));
        Matcher output = Pattern.compile("it prints:\n\n```\n(.*?)```\n", Pattern.DOTALL).matcher(java);
        assertEquals(true, output.find(), "docs/bindings.md shows the example's output");

        String fib = Support.FIB.toString();
        byte[] out = Support.run(List.of(jdk + "/bin/java", "--enable-native-access=org.libiprof", "-p", jar,
                "--add-modules", "org.libiprof", example.toString(), tmp.resolve("merged.iprof").toString(),
                fib, "2", fib, "1"), Map.of());
        assertEquals(output.group(1), new String(out, StandardCharsets.UTF_8));
        byte[] tool = Support.run(List.of(Support.iprof(), "merge", "-w", fib + "=3", fib), Map.of());
        assertArrayEquals(tool, Files.readAllBytes(tmp.resolve("merged.iprof")));
    }
}
