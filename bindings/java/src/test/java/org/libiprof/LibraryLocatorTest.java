package org.libiprof;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The lookup order of the library, a pure function of (os name, properties, environment). */
class LibraryLocatorTest {
    private static final Function<String, String> NO_PROPS = k -> null;

    private static List<String> order(String os, Function<String, String> props, Map<String, String> env) {
        return LibraryLocator.candidates(os, props, env).stream().map(LibraryLocator.Candidate::toString).toList();
    }

    @Test
    void platformOrders() {
        assertEquals(List.of("libiprof.so.1 (dynamic loader) from the installed library (Linux)"),
                     order("Linux", NO_PROPS, Map.of()));
        assertEquals(List.of("libiprof.so.1 (dynamic loader) from the installed library (FreeBSD)"),
                     order("FreeBSD", NO_PROPS, Map.of()));
        assertEquals(List.of("libiprof.1.dylib (dynamic loader) from the installed library (Mac OS X)",
                             "libiprof.dylib (dynamic loader) from the installed library (Mac OS X)"),
                     order("Mac OS X", NO_PROPS, Map.of()));
        assertEquals(List.of("iprof.dll (dynamic loader) from the installed library (Windows 11)",
                             "iprof-1.dll (dynamic loader) from the installed library (Windows 11)",
                             "libiprof-1.dll (dynamic loader) from the installed library (Windows 11)"),
                     order("Windows 11", NO_PROPS, Map.of()));
    }

    @Test
    void propertyThenEnvironmentOnEveryPlatform() {
        for (String os : List.of("Linux", "Mac OS X", "Windows 10")) {
            assertEquals(List.of("/p/libiprof.so from system property iprof.library"),
                         order(os, k -> k.equals("iprof.library") ? "/p/libiprof.so" : null,
                               Map.of("IPROF_LIBRARY", "/e/libiprof.so")));
            assertEquals(List.of("/e/libiprof.so from environment variable IPROF_LIBRARY"),
                         order(os, NO_PROPS, Map.of("IPROF_LIBRARY", "/e/libiprof.so")));
            assertEquals(order(os, NO_PROPS, Map.of()), order(os, k -> "", Map.of("IPROF_LIBRARY", "")),
                         "empty values count as unset");
        }
    }

    @Test
    void loadedFromWhatMesonSet() {
        String env = System.getenv("IPROF_LIBRARY");
        if (env != null) {
            assertEquals(env + " from environment variable IPROF_LIBRARY", Iprof.libraryLocation());
        }
    }

    @Test
    void failureSaysWhatWasTried() {
        String old = System.getProperty("iprof.library");
        System.setProperty("iprof.library", "/nonexistent/libiprof.so.1");
        try {
            LibraryException e = org.junit.jupiter.api.Assertions.assertThrows(LibraryException.class,
                    LibraryLocator::load);
            org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().startsWith(
                    "libiprof not found; tried:\n  /nonexistent/libiprof.so.1 from system property iprof.library: "),
                    e.getMessage());
        } finally {
            if (old == null) {
                System.clearProperty("iprof.library");
            } else {
                System.setProperty("iprof.library", old);
            }
        }
    }
}
