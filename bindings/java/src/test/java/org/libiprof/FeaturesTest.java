package org.libiprof;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** The optional features reported by the library are those meson built it with (IPROF_FEATURES). */
class FeaturesTest {
    @Test
    void featuresAreTheBuilds() {
        String built = System.getenv("IPROF_FEATURES");
        assumeTrue(built != null, "run by meson test (IPROF_FEATURES names what the build has)");
        Set<String> want = Set.of(built.isBlank() ? new String[0] : built.trim().split(" +"));
        assertEquals(want.contains("gzip"), Iprof.gzipSupported());
        assertEquals(want.contains("threads"), Iprof.threadsSupported());
    }
}
