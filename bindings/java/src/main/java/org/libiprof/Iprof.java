package org.libiprof;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The library itself: its version, its optional features, where it was loaded
 * from, package matching, and the constants of {@code <iprof/analysis.h>}
 * and {@code <iprof/iprof.h>}.
 */
public final class Iprof {
    /** The major version of libiprof this binding was written for. */
    public static final int BINDING_MAJOR = 1;
    /** GraalVM's EXTREMELY_SLOW_PATH_PROBABILITY, 1 - 0.999999. */
    public static final double EXTREMELY_SLOW_PATH_PROBABILITY = 1.0 - 0.999999;
    /** The bci GraalVM writes for switch cases sharing their target. */
    public static final long INVALID_BRANCH_BCI = -5;
    /** Format version 0.2.0: GraalVM's legacy layout. */
    public static final String FORMAT_0_2_0 = "0.2.0";
    /** Format version 0.4.0. */
    public static final String FORMAT_0_4_0 = "0.4.0";
    /** Format version 1.0.0. */
    public static final String FORMAT_1_0_0 = "1.0.0";
    /** Format version 1.1.0: 1.0.0 plus instanceofProfiles. */
    public static final String FORMAT_1_1_0 = "1.1.0";
    /** The newest format version the library knows. */
    public static final String FORMAT_LATEST = FORMAT_1_1_0;

    private Iprof() {
    }

    /**
     * Load the library now (it loads on first use otherwise).
     * @throws LibraryException when it cannot be found, saying what was tried
     */
    public static void load() {
        try {
            libraryLocation();
        } catch (ExceptionInInitializerError e) {
            if (e.getCause() instanceof LibraryException l) {
                throw l;
            }
            throw e;
        }
    }

    /** {@return what was loaded, "/usr/lib/x86_64-linux-gnu/libiprof.so.1 from ..."} */
    public static String libraryLocation() {
        return Native.LIBRARY;
    }

    /** {@return the version of the library running, "1.0.0"} */
    public static String version() {
        return Native.cstr(Native.call(Native.VERSION_STRING));
    }

    /** IPROF_FEATURE_GZIP. */
    private static final int FEATURE_GZIP = 0x1;
    /** IPROF_FEATURE_THREADS. */
    private static final int FEATURE_THREADS = 0x2;

    private static int features() {
        try {
            return (int) Native.FEATURES.invokeExact();
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /** {@return whether the library reads and writes gzip (a build with zlib)} */
    public static boolean gzipSupported() {
        return (features() & FEATURE_GZIP) != 0;
    }

    /**
     * {@return whether {@link ReadOptions#withThreaded} and {@link WriteOptions#withThreaded}
     * use a second thread (a build with threads; without, they do the same work on one)}
     */
    public static boolean threadsSupported() {
        return (features() & FEATURE_THREADS) != 0;
    }

    /**
     * Whether a type is in a package, as filters match them: "com.foo" matches com.foo.Bar
     * and com.foo.impl.Baz$1, not com.foobar.X or com.foo$X.
     * @param pkg the package (a trailing '.' is ignored; "" matches every type)
     * @param typeName the type's name
     * @return whether it matches (never for a package with a NUL character)
     */
    public static boolean packageMatches(String pkg, String typeName) {
        if (pkg.indexOf('\0') >= 0) {
            return false;
        }
        try (Arena a = Arena.ofConfined()) {
            MemorySegment t = Native.utf8(a, typeName);
            return (int) Native.PACKAGE_MATCHES.invokeExact(Native.utf8(a, pkg), t, Native.len(t)) != 0;
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }
}
