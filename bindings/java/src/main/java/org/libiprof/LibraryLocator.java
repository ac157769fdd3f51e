package org.libiprof;

import java.lang.foreign.Arena;
import java.lang.foreign.SymbolLookup;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * Where the binding looks for libiprof, in order:
 * <ol>
 * <li>the system property {@value #PROPERTY} (a path), then the
 *     environment variable {@value #ENV} (a path): when one is set, it is
 *     the library, and failing to load it is an error (nothing else is
 *     tried);</li>
 * <li>the installed library by its platform name, through the dynamic
 *     loader (its search path: {@code LD_LIBRARY_PATH}, ld.so.cache,
 *     {@code DYLD_LIBRARY_PATH}, {@code PATH} ...): Linux and other Unix
 *     {@code libiprof.so.1}; macOS {@code libiprof.1.dylib} then
 *     {@code libiprof.dylib}; Windows {@code iprof.dll}, {@code iprof-1.dll}
 *     then {@code libiprof-1.dll} (the names MSVC and MinGW builds give).</li>
 * </ol>
 * {@link #candidates} is a pure function of the OS name, the properties
 * and the environment, so every platform's order is tested on any one.
 */
final class LibraryLocator {
    /** The system property naming the library's path. */
    static final String PROPERTY = "iprof.library";
    /** The environment variable naming the library's path. */
    static final String ENV = "IPROF_LIBRARY";

    /** One place to try: a path, or a name for the dynamic loader; and why it is tried. */
    record Candidate(String name, boolean isPath, String source) {
        @Override
        public String toString() {
            return (isPath ? name : name + " (dynamic loader)") + " from " + source;
        }
    }

    /** A loaded library and the candidate it came from. */
    record Found(SymbolLookup lookup, String where) {
    }

    private LibraryLocator() {
    }

    /** The platform names of the library for {@code os.name}. */
    static List<String> platformNames(String osName) {
        String os = osName.toLowerCase(Locale.ROOT);
        if (os.startsWith("windows")) {
            return List.of("iprof.dll", "iprof-1.dll", "libiprof-1.dll");
        }
        if (os.startsWith("mac") || os.startsWith("darwin")) {
            return List.of("libiprof.1.dylib", "libiprof.dylib");
        }
        return List.of("libiprof.so.1");
    }

    /**
     * The candidates, in order: the property or the environment variable
     * alone when set (non-empty), else the platform names.
     */
    static List<Candidate> candidates(String osName, Function<String, String> properties,
                                      Map<String, String> env) {
        String prop = properties.apply(PROPERTY);
        if (prop != null && !prop.isEmpty()) {
            return List.of(new Candidate(prop, true, "system property " + PROPERTY));
        }
        String var = env.get(ENV);
        if (var != null && !var.isEmpty()) {
            return List.of(new Candidate(var, true, "environment variable " + ENV));
        }
        List<Candidate> out = new ArrayList<>();
        for (String name : platformNames(osName)) {
            out.add(new Candidate(name, false, "the installed library (" + osName + ")"));
        }
        return out;
    }

    /** Load the first candidate that loads, or say what was tried. */
    static Found load() {
        List<Candidate> tried = candidates(System.getProperty("os.name", ""), System::getProperty,
                                           System.getenv());
        StringBuilder why = new StringBuilder();
        for (Candidate c : tried) {
            try {
                SymbolLookup lookup = c.isPath()
                        ? SymbolLookup.libraryLookup(Path.of(c.name()), Arena.global())
                        : SymbolLookup.libraryLookup(c.name(), Arena.global());
                return new Found(lookup, c.toString());
            } catch (IllegalArgumentException | IllegalCallerException e) {
                why.append("\n  ").append(c).append(": ").append(e.getMessage());
            }
        }
        throw new LibraryException("libiprof not found; tried:" + why
                + "\nSet -D" + PROPERTY + "=PATH or " + ENV + "=PATH, or install libiprof"
                + " (and run with --enable-native-access=org.libiprof, or ALL-UNNAMED on the class path)");
    }
}
