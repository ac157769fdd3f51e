package org.libiprof;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * The linked C library: one {@code static final} downcall handle per row
 * of {@link Fn} (constant for the JIT, so calls through them inline), the
 * upcall stubs of {@link Fn.Up}, and the helpers every class uses. Nothing
 * else in the binding calls {@code Linker.downcallHandle} or
 * {@code Linker.upcallStub}: a test checks that the fields here are
 * exactly the rows of the table.
 */
final class Native {
    private static final Linker LINKER = Linker.nativeLinker();
    private static final Set<Fn> LINKED = Collections.synchronizedSet(EnumSet.noneOf(Fn.class));
    private static final Set<Fn.Up> UPCALLS = Collections.synchronizedSet(EnumSet.noneOf(Fn.Up.class));
    /** Where the library was found (LibraryLocator.Candidate.toString()). */
    static final String LIBRARY;
    private static final SymbolLookup LOOKUP;

    static {
        LibraryLocator.Found found = LibraryLocator.load();
        LOOKUP = found.lookup();
        LIBRARY = found.where();
    }

    static final MethodHandle STATUS_STRING = link(Fn.STATUS_STRING);
    static final MethodHandle VERSION_STRING = link(Fn.VERSION_STRING);
    static final MethodHandle FEATURES = link(Fn.FEATURES);
    static final MethodHandle ERROR_GET_INFO = link(Fn.ERROR_GET_INFO);
    static final MethodHandle READ_OPTIONS_INIT = link(Fn.READ_OPTIONS_INIT);
    static final MethodHandle READER_NEW = link(Fn.READER_NEW);
    static final MethodHandle READER_FREE = link(Fn.READER_FREE);
    static final MethodHandle READER_ERROR = link(Fn.READER_ERROR);
    static final MethodHandle READER_DIAG = link(Fn.READER_DIAG);
    static final MethodHandle READER_GET_RESULT = link(Fn.READER_GET_RESULT);
    static final MethodHandle MODEL_NEW = link(Fn.MODEL_NEW);
    static final MethodHandle MODEL_FREE = link(Fn.MODEL_FREE);
    static final MethodHandle MODEL_LOAD = link(Fn.MODEL_LOAD);
    static final MethodHandle MODEL_VERSION = link(Fn.MODEL_VERSION);
    static final MethodHandle MODEL_BUILD_INDEXES = link(Fn.MODEL_BUILD_INDEXES);
    static final MethodHandle MODEL_UNREAD_COUNT = link(Fn.MODEL_UNREAD_COUNT);
    static final MethodHandle MODEL_ERROR = link(Fn.MODEL_ERROR);
    static final MethodHandle MODEL_TYPE_COUNT = link(Fn.MODEL_TYPE_COUNT);
    static final MethodHandle MODEL_TYPE_AT = link(Fn.MODEL_TYPE_AT);
    static final MethodHandle MODEL_TYPE_BY_ID = link(Fn.MODEL_TYPE_BY_ID);
    static final MethodHandle MODEL_TYPE_BY_NAME = link(Fn.MODEL_TYPE_BY_NAME);
    static final MethodHandle TYPE_ID = link(Fn.TYPE_ID);
    static final MethodHandle TYPE_NAME = link(Fn.TYPE_NAME);
    static final MethodHandle MODEL_METHOD_COUNT = link(Fn.MODEL_METHOD_COUNT);
    static final MethodHandle MODEL_METHOD_AT = link(Fn.MODEL_METHOD_AT);
    static final MethodHandle MODEL_METHOD_BY_ID = link(Fn.MODEL_METHOD_BY_ID);
    static final MethodHandle MODEL_METHOD_FIND = link(Fn.MODEL_METHOD_FIND);
    static final MethodHandle METHOD_ID = link(Fn.METHOD_ID);
    static final MethodHandle METHOD_NAME = link(Fn.METHOD_NAME);
    static final MethodHandle METHOD_SIGNATURE = link(Fn.METHOD_SIGNATURE);
    static final MethodHandle MODEL_METHOD_DESCRIBE = link(Fn.MODEL_METHOD_DESCRIBE);
    static final MethodHandle CONTEXT_DEPTH = link(Fn.CONTEXT_DEPTH);
    static final MethodHandle CONTEXT_METHOD_ID = link(Fn.CONTEXT_METHOD_ID);
    static final MethodHandle CONTEXT_BCI = link(Fn.CONTEXT_BCI);
    static final MethodHandle CONTEXT_CALLER = link(Fn.CONTEXT_CALLER);
    static final MethodHandle CONTEXT_FRAMES = link(Fn.CONTEXT_FRAMES);
    static final MethodHandle CONTEXT_FORMAT = link(Fn.CONTEXT_FORMAT);
    static final MethodHandle MODEL_CONTEXT_DESCRIBE = link(Fn.MODEL_CONTEXT_DESCRIBE);
    static final MethodHandle MODEL_CONTEXT_COUNT = link(Fn.MODEL_CONTEXT_COUNT);
    static final MethodHandle MODEL_ENTRY_COUNT = link(Fn.MODEL_ENTRY_COUNT);
    static final MethodHandle MODEL_ENTRY_AT = link(Fn.MODEL_ENTRY_AT);
    static final MethodHandle MODEL_ENTRY_FIND = link(Fn.MODEL_ENTRY_FIND);
    static final MethodHandle ENTRY_KIND = link(Fn.ENTRY_KIND);
    static final MethodHandle ENTRY_CONTEXT = link(Fn.ENTRY_CONTEXT);
    static final MethodHandle ENTRY_RECORDS = link(Fn.ENTRY_RECORDS);
    static final MethodHandle MERGE_OPTIONS_INIT = link(Fn.MERGE_OPTIONS_INIT);
    static final MethodHandle MODEL_MERGE = link(Fn.MODEL_MERGE);
    static final MethodHandle MODEL_MERGE_SOURCE = link(Fn.MODEL_MERGE_SOURCE);
    static final MethodHandle WRITE_OPTIONS_INIT = link(Fn.WRITE_OPTIONS_INIT);
    static final MethodHandle WRITER_NEW = link(Fn.WRITER_NEW);
    static final MethodHandle WRITER_FREE = link(Fn.WRITER_FREE);
    static final MethodHandle WRITER_WRITE_MODEL = link(Fn.WRITER_WRITE_MODEL);
    static final MethodHandle WRITER_ERROR = link(Fn.WRITER_ERROR);
    static final MethodHandle WRITER_BUFFER = link(Fn.WRITER_BUFFER);
    static final MethodHandle READER_READ = link(Fn.READER_READ);
    static final MethodHandle WRITER_BEGIN = link(Fn.WRITER_BEGIN);
    static final MethodHandle WRITER_TYPE = link(Fn.WRITER_TYPE);
    static final MethodHandle WRITER_METHOD = link(Fn.WRITER_METHOD);
    static final MethodHandle WRITER_ENTRY = link(Fn.WRITER_ENTRY);
    static final MethodHandle WRITER_UNKNOWN = link(Fn.WRITER_UNKNOWN);
    static final MethodHandle WRITER_END = link(Fn.WRITER_END);
    static final MethodHandle MODEL_SET_VERSION = link(Fn.MODEL_SET_VERSION);
    static final MethodHandle MODEL_ADD_TYPE = link(Fn.MODEL_ADD_TYPE);
    static final MethodHandle MODEL_REMOVE_TYPE = link(Fn.MODEL_REMOVE_TYPE);
    static final MethodHandle MODEL_ADD_METHOD = link(Fn.MODEL_ADD_METHOD);
    static final MethodHandle MODEL_REMOVE_METHOD = link(Fn.MODEL_REMOVE_METHOD);
    static final MethodHandle MODEL_ADD_ENTRY = link(Fn.MODEL_ADD_ENTRY);
    static final MethodHandle MODEL_REMOVE_ENTRY = link(Fn.MODEL_REMOVE_ENTRY);
    static final MethodHandle MODEL_SET_ENTRY_RECORDS = link(Fn.MODEL_SET_ENTRY_RECORDS);
    static final MethodHandle MODEL_MAP_RECORDS = link(Fn.MODEL_MAP_RECORDS);
    static final MethodHandle MODEL_SCALE = link(Fn.MODEL_SCALE);
    static final MethodHandle MODEL_UNKNOWN_COUNT = link(Fn.MODEL_UNKNOWN_COUNT);
    static final MethodHandle MODEL_UNKNOWN_AT = link(Fn.MODEL_UNKNOWN_AT);
    static final MethodHandle MODEL_ADD_UNKNOWN = link(Fn.MODEL_ADD_UNKNOWN);
    static final MethodHandle MODEL_REMOVE_UNKNOWN = link(Fn.MODEL_REMOVE_UNKNOWN);
    static final MethodHandle MODEL_INSTANCEOF_KEY = link(Fn.MODEL_INSTANCEOF_KEY);
    static final MethodHandle MODEL_SET_INSTANCEOF_KEY = link(Fn.MODEL_SET_INSTANCEOF_KEY);
    static final MethodHandle MODEL_CANONICALIZE = link(Fn.MODEL_CANONICALIZE);
    static final MethodHandle FILTER_OPTIONS_INIT = link(Fn.FILTER_OPTIONS_INIT);
    static final MethodHandle MODEL_FILTER = link(Fn.MODEL_FILTER);
    static final MethodHandle PACKAGE_MATCHES = link(Fn.PACKAGE_MATCHES);
    static final MethodHandle MODEL_PRUNE = link(Fn.MODEL_PRUNE);
    static final MethodHandle DIFF_OPTIONS_INIT = link(Fn.DIFF_OPTIONS_INIT);
    static final MethodHandle DIFF_NEW = link(Fn.DIFF_NEW);
    static final MethodHandle DIFF_FREE = link(Fn.DIFF_FREE);
    static final MethodHandle DIFF_GET_SUMMARY = link(Fn.DIFF_GET_SUMMARY);
    static final MethodHandle DIFF_GET_KIND = link(Fn.DIFF_GET_KIND);
    static final MethodHandle DIFF_GET_CHANGE = link(Fn.DIFF_GET_CHANGE);
    static final MethodHandle DIFF_METHOD_ONLY_AT = link(Fn.DIFF_METHOD_ONLY_AT);
    static final MethodHandle ENTRY_BRANCH_PROBABILITIES = link(Fn.ENTRY_BRANCH_PROBABILITIES);
    static final MethodHandle ENTRY_TYPE_SHARES = link(Fn.ENTRY_TYPE_SHARES);
    static final MethodHandle ENTRY_TOTAL = link(Fn.ENTRY_TOTAL);
    static final MethodHandle MODEL_METHOD_TOTALS = link(Fn.MODEL_METHOD_TOTALS);
    static final MethodHandle MODEL_GET_COLUMNS = link(Fn.MODEL_GET_COLUMNS);

    static {
        String v = cstr(call(VERSION_STRING));
        if (!v.startsWith(Iprof.BINDING_MAJOR + ".")) {
            throw new LibraryException("libiprof " + v + " (" + LIBRARY + ") is not of the major version "
                    + Iprof.BINDING_MAJOR + " this binding was written for");
        }
    }

    private Native() {
    }

    private static MethodHandle link(Fn fn) {
        MemorySegment symbol = LOOKUP.find(fn.symbol).orElseThrow(() -> new LibraryException(
                "libiprof (" + LIBRARY + ") lacks the function " + fn.symbol));
        MethodHandle h = fn.critical
                ? LINKER.downcallHandle(symbol, fn.descriptor, Linker.Option.critical(true))
                : LINKER.downcallHandle(symbol, fn.descriptor);
        LINKED.add(fn);
        return h;
    }

    /** The rows of the table that have been linked (all, once this class is initialised). */
    static Set<Fn> linked() {
        return EnumSet.copyOf(LINKED);
    }

    /** The upcall descriptors for which a stub was made so far. */
    static Set<Fn.Up> upcallsMade() {
        synchronized (UPCALLS) {
            return UPCALLS.isEmpty() ? EnumSet.noneOf(Fn.Up.class) : EnumSet.copyOf(UPCALLS);
        }
    }

    /**
     * An upcall stub for {@code target}, valid until {@code arena} closes.
     * {@code target} must never throw: callers catch everything and
     * return non-zero (an exception escaping an upcall ends the JVM).
     */
    static MemorySegment upcall(Fn.Up up, MethodHandle target, Arena arena) {
        UPCALLS.add(up);
        return LINKER.upcallStub(target, up.descriptor, arena);
    }

    /** A method handle of {@code owner}'s method {@code name}, typed as {@code up} needs. */
    static MethodHandle target(Object owner, String name, Fn.Up up) {
        try {
            MethodType t = up.descriptor.toMethodType();
            return MethodHandles.lookup().findVirtual(owner.getClass(), name, t).bindTo(owner);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    /** {@code h()} for a handle of type {@code ()MemorySegment}. */
    static MemorySegment call(MethodHandle h) {
        try {
            return (MemorySegment) h.invokeExact();
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            throw r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        throw new IllegalStateException(t);
    }

    /** A NUL-terminated UTF-8 string at {@code p}; "" for NULL. */
    static String cstr(MemorySegment p) {
        if (p.address() == 0) {
            return "";
        }
        return p.reinterpret(Long.MAX_VALUE).getString(0, StandardCharsets.UTF_8);
    }

    /** {@code len} bytes of UTF-8 at {@code p} (they may hold NUL bytes). */
    static String str(MemorySegment p, long len) {
        if (len == 0) {
            return "";
        }
        byte[] b = p.reinterpret(len).toArray(ValueLayout.JAVA_BYTE);
        return new String(b, StandardCharsets.UTF_8);
    }

    /** A UTF-8 copy of {@code s} in {@code arena}, with a NUL after it; its length is {@link #len}. */
    static MemorySegment utf8(Arena arena, String s) {
        return arena.allocateFrom(s, StandardCharsets.UTF_8);
    }

    /** The byte length of a string made by {@link #utf8} (without its NUL). */
    static long len(MemorySegment s) {
        return s.byteSize() - 1;
    }

    /** The descriptor of a table row (for tests and the metadata). */
    static FunctionDescriptor descriptor(Fn fn) {
        return fn.descriptor;
    }
}
