package org.libiprof;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The jar is the module org.libiprof of meson's version; pom.xml agrees and Maven accepts it offline. */
class PackagingTest {
    private static String version() throws IOException {
        Matcher m = Pattern.compile("project\\('libiprof',[^)]*?version: '([^']+)'", Pattern.DOTALL)
                .matcher(Files.readString(Support.SOURCE.resolve("meson.build")));
        assertTrue(m.find());
        return m.group(1);
    }

    @Test
    void jarIsTheModule() throws IOException {
        String jar = System.getProperty("iprof.test.jar");
        org.junit.jupiter.api.Assumptions.assumeTrue(jar != null, "no jar given (iprof.test.jar)");
        assertEquals("iprof-" + version() + ".jar", Path.of(jar).getFileName().toString());
        ModuleDescriptor d = ModuleFinder.of(Path.of(jar)).find("org.libiprof").orElseThrow().descriptor();
        assertEquals(Set.of("org.libiprof"), d.packages());
        assertEquals(version(), d.rawVersion().orElseThrow());
        assertEquals(1, d.exports().size());
    }

    @Test
    void buildSkipsSayingWhyWithoutAJdk22() throws Exception {
        ProcessBuilder pb = new ProcessBuilder("sh", Support.SOURCE.resolve("bindings/java/build.sh").toString(),
                "test", Files.createTempDirectory("iprof-nojdk").toString()).redirectErrorStream(true);
        pb.environment().put("JAVA_HOME", System.getProperty("iprof.test.old.jdk", "/usr/lib/jvm/java-17-openjdk-amd64"));
        pb.environment().put("IPROF_JVM_DIR", "/nonexistent/jvm");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(77, p.waitFor(), "exit 77: meson's skipped");
        assertTrue(out.startsWith("SKIP: no JDK 22 or later (JAVA_HOME, then /usr/lib/jvm/*): "), out);
    }

    @Test
    void pomAgreesAndValidatesOffline() throws Exception {
        Path pom = Support.SOURCE.resolve("bindings/java/pom.xml");
        String text = Files.readString(pom);
        assertTrue(text.contains("<groupId>org.libiprof</groupId>"), "groupId");
        assertTrue(text.contains("<artifactId>iprof</artifactId>"), "artifactId");
        assertTrue(text.contains("<version>" + version() + "</version>"), "the pom's version is meson's");
        assertTrue(text.contains("<maven.compiler.release>22</maven.compiler.release>"), "release 22");
        assertTrue(text.contains("<dependencies/>") || !text.contains("<dependency>"), "no dependencies");
        Path mvn = Path.of("/usr/bin/mvn");
        if (!Files.isExecutable(mvn)) {
            System.out.println("SKIP: no mvn to validate pom.xml offline (Debian package maven)");
            return;
        }
        Path repo = Files.createTempDirectory("iprof-m2");
        String out = new String(Support.run(List.of(mvn.toString(), "-o", "-B", "-q", "-f", pom.toString(),
                "-Dmaven.repo.local=" + repo, "validate"), Map.of()));
        assertEquals("", out.replaceAll("\u001b\\[[0-9;]*m", "").strip(), "mvn -o validate said something");
    }
}
