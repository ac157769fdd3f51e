package org.libiprof;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
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
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;

/** The jar is the module org.libiprof of meson's version; pom.xml agrees and Maven installs it offline. */
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
        Path work = Files.createTempDirectory("iprof-nojdk");
        try {
            ProcessBuilder pb = new ProcessBuilder("sh", Support.SOURCE.resolve("bindings/java/build.sh").toString(),
                    "test", work.toString()).redirectErrorStream(true);
            pb.environment().put("JAVA_HOME", System.getProperty("iprof.test.old.jdk", "/usr/lib/jvm/java-17-openjdk-amd64"));
            pb.environment().put("IPROF_JVM_DIR", "/nonexistent/jvm");
            Process p = pb.start();
            String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertEquals(77, p.waitFor(), "exit 77: meson's skipped");
            assertTrue(out.startsWith("SKIP: no JDK 22 or later (JAVA_HOME, then /usr/lib/jvm/*): "), out);
        } finally {
            deleteTree(work);
        }
    }

    /** Copies a tree (the binding's sources, for Maven to build outside the checkout). */
    private static void copyTree(Path from, Path to) throws IOException {
        try (var paths = Files.walk(from)) {
            for (Path f : (Iterable<Path>) paths::iterator) {
                Path t = to.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(f, t);
                }
            }
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (var paths = Files.walk(dir)) {
            for (Path f : (Iterable<Path>) paths.sorted(java.util.Comparator.reverseOrder())::iterator) {
                Files.delete(f);
            }
        }
    }

    private static byte[] entry(Path jar, String name) throws IOException {
        try (ZipFile z = new ZipFile(jar.toFile())) {
            ZipEntry e = z.getEntry(name);
            assertTrue(e != null, name + " in " + jar);
            return z.getInputStream(e).readAllBytes();
        }
    }

    /**
     * docs/bindings.md's offline command, `mvn -o -s maven-debian-settings.xml
     * -Daether.offline.protocols=file install`, run on a copy of bindings/java with a
     * fresh local repository: the jar it installs is org.libiprof:iprof of meson's
     * version, the module org.libiprof of that version, with build.sh's metadata.
     */
    @Test
    void pomAgreesAndInstallsOffline() throws Exception {
        Path pom = Support.SOURCE.resolve("bindings/java/pom.xml");
        String text = Files.readString(pom);
        String version = version();
        assertTrue(text.contains("<groupId>org.libiprof</groupId>"), "groupId");
        assertTrue(text.contains("<artifactId>iprof</artifactId>"), "artifactId");
        assertTrue(text.contains("<version>" + version + "</version>"), "the pom's version is meson's");
        assertTrue(text.contains("<maven.compiler.release>22</maven.compiler.release>"), "release 22");
        assertTrue(text.contains("<dependencies/>") || !text.contains("<dependency>"), "no dependencies");
        Path mvn = Path.of("/usr/bin/mvn");
        if (!Files.isExecutable(mvn)) {
            System.out.println("SKIP: no mvn to install pom.xml offline (Debian package maven)");
            return;
        }
        // The plugin versions the pom pins must be the ones Debian ships (scripts/test.sh installs them).
        Matcher pin = Pattern.compile("<(\\w+)\\.plugin\\.version>([^<]+)<").matcher(text);
        int pins = 0;
        while (pin.find()) {
            boolean mojo = pin.group(1).equals("exec");
            Path dir = Path.of("/usr/share/maven-repo", mojo ? "org/codehaus/mojo" : "org/apache/maven/plugins",
                    mojo ? "exec-maven-plugin" : "maven-" + pin.group(1) + "-plugin", pin.group(2));
            assertTrue(Files.isDirectory(dir), dir + ": the pom pins a plugin version Debian 12 does not ship");
            pins++;
        }
        assertEquals(6, pins, "compiler, resources, jar, install, surefire and exec plugins pinned");
        Path work = Files.createTempDirectory("iprof-mvn");
        try {
            Path copy = work.resolve("java");
            copyTree(Support.SOURCE.resolve("bindings/java"), copy);
            Path repo = work.resolve("m2");
            String out = new String(Support.run(List.of(mvn.toString(), "-o", "-B", "-q",
                    "-f", copy.resolve("pom.xml").toString(), "-s", copy.resolve("maven-debian-settings.xml").toString(),
                    "-Daether.offline.protocols=file", "-Dmaven.repo.local=" + repo, "install"),
                    Map.of("JAVA_HOME", System.getProperty("java.home"))));
            assertEquals("", out.replaceAll("\u001b\\[[0-9;]*m", "").strip(), "mvn -o install said something");
            Path dir = repo.resolve("org/libiprof/iprof/" + version);
            assertEquals(text, Files.readString(dir.resolve("iprof-" + version + ".pom")), "the installed pom");
            Path jar = dir.resolve("iprof-" + version + ".jar");
            ModuleDescriptor d = ModuleFinder.of(jar).find("org.libiprof").orElseThrow().descriptor();
            assertEquals(Set.of("org.libiprof"), d.packages());
            assertEquals(version, d.rawVersion().orElseThrow());
            assertEquals(Set.of("org.libiprof"), d.exports().stream().map(ModuleDescriptor.Exports::source)
                    .collect(java.util.stream.Collectors.toSet()));
            String metadata = "META-INF/native-image/org.libiprof/iprof/reachability-metadata.json";
            String built = System.getProperty("iprof.test.jar");
            if (built != null) {
                assertArrayEquals(entry(Path.of(built), metadata), entry(jar, metadata), "Maven's metadata is build.sh's");
            } else {
                assertTrue(entry(jar, metadata).length > 0, metadata);
            }
        } finally {
            deleteTree(work);  // 15 MB of Maven's plugins per run
        }
    }
}
