package org.libiprof;

import java.io.InputStream;
import java.io.OutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.List;
import java.util.RandomAccess;

/**
 * A profile in memory ({@code iprof_model}): its types, methods and
 * entries, lookups, edits, merges, the canonical form, filters, analysis
 * and writing. Close it when done (try-with-resources).
 *
 * <p><b>Lifetimes.</b> What a model hands out checks on each access that
 * it is still valid, so no access touches memory the C side has freed:
 * after {@link #close()} every {@link Type}, {@link Method},
 * {@link Context}, {@link Entry}, {@link Columns}, list and records view
 * throws ({@link ClosedException}, or {@link IllegalStateException} for a
 * records view or a segment of columns). An entry, the list it came from
 * and the kind's columns go stale at the
 * next change to entries of its kind (add, remove, set records, map
 * records, scale, remove method with cascade, merge, filter, prune,
 * canonicalize): it then
 * throws {@link StaleException}; types and methods go stale at removals
 * of types (methods), contexts at {@link #canonicalize}. Additions
 * invalidate nothing. The C memory is freed only when no downcall uses it:
 * a {@code close()} racing with a call on another thread fails instead.
 *
 * <p><b>Threads.</b> As in C: a model nobody changes may be read from any
 * number of threads at once; a change needs exclusive access.
 */
public final class Model implements AutoCloseable {
    /** IPROF_REMOVE_CASCADE of iprof_model_remove_method. */
    private static final int REMOVE_CASCADE = 0x1;
    private final Handle h;
    final int[] kindGen = new int[6];
    int typeGen;
    int methodGen;
    int ctxGen;
    private long mutations;
    /**
     * Per kind, the arena of its records views and columns, and whether one was taken. Only
     * changes (exclusive) replace an arena, never readers, which may run on several threads:
     * so every view lands in the arena the next change of its kind closes.
     */
    private final Arena[] views = {Arena.ofShared(), Arena.ofShared(), Arena.ofShared(), Arena.ofShared(),
                                   Arena.ofShared(), Arena.ofShared()};
    private final boolean[] viewed = new boolean[6];
    /** Per kind, the last columns taken: the same object serves until the kind changes. */
    private final Columns[] columns = new Columns[6];
    private int busy;
    private boolean exclusive;
    private final List<Report> diagnostics;
    private final long droppedErrors;
    private final long droppedWarnings;
    private final Report damage;

    /** An empty model of the latest format version. */
    public Model() {
        try (Arena tmp = Arena.ofConfined()) {
            MemorySegment out = Handle.out(tmp);
            int rc = (int) Native.MODEL_NEW.invokeExact(out, MemorySegment.NULL);
            if (rc != 0) {
                throw new IprofException(Status.of(rc), "iprof_model_new failed");
            }
            h = new Handle(out.get(ValueLayout.ADDRESS, 0), Native.MODEL_FREE, "this Model");
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
        diagnostics = List.of();
        droppedErrors = 0;
        droppedWarnings = 0;
        damage = null;
    }

    Model(MemorySegment raw, List<Report> diagnostics, long droppedErrors, long droppedWarnings, Report damage) {
        h = new Handle(raw, Native.MODEL_FREE, "this Model");
        this.diagnostics = List.copyOf(diagnostics);
        this.droppedErrors = droppedErrors;
        this.droppedWarnings = droppedWarnings;
        this.damage = damage;
    }

    // ---- loading ---------------------------------------------------------

    /**
     * Load a file (gzip or not) with the default options.
     * @param path the file
     * @return the model
     * @throws IprofException when it is invalid or cannot be read
     */
    public static Model load(Path path) {
        return load(path, ReadOptions.defaults());
    }

    /**
     * Load a file.
     * @param path the file
     * @param options the read options
     * @return the model
     * @throws IprofException when it is invalid or cannot be read
     */
    public static Model load(Path path, ReadOptions options) {
        try (Reader r = new Reader(options)) {
            return r.load(path);
        }
    }

    /**
     * Load a document in memory with the default options.
     * @param data the document
     * @return the model
     * @throws IprofException when it is invalid
     */
    public static Model load(byte[] data) {
        return load(data, ReadOptions.defaults());
    }

    /**
     * Load a document in memory.
     * @param data the document
     * @param options the read options
     * @return the model
     * @throws IprofException when it is invalid
     */
    public static Model load(byte[] data, ReadOptions options) {
        try (Reader r = new Reader(options)) {
            return r.load(data);
        }
    }

    /**
     * Load a stream to its end (not closed) with the default options.
     * @param in the stream
     * @return the model
     * @throws IprofException when it is invalid
     */
    public static Model load(InputStream in) {
        return load(in, ReadOptions.defaults());
    }

    /**
     * Load a stream to its end (not closed).
     * @param in the stream
     * @param options the read options
     * @return the model
     * @throws IprofException when it is invalid
     */
    public static Model load(InputStream in, ReadOptions options) {
        try (Reader r = new Reader(options)) {
            return r.load(in);
        }
    }

    // ---- access checks ---------------------------------------------------

    MemorySegment ptr() {
        if (exclusive) {
            throw new IllegalStateException("this Model is being merged into: its merge's input stream may not use it");
        }
        return h.ptr();
    }

    /** The pointer for a change: refused while a callback of the model's runs. */
    private MemorySegment mut() {
        MemorySegment p = ptr();
        if (busy > 0) {
            throw new IllegalStateException("this Model may not be changed from inside its own callback");
        }
        mutations++;
        return p;
    }

    long mutations() {
        return mutations;
    }

    boolean isClosed() {
        return h.closed();
    }

    private void staleKind(int k) {
        kindGen[k]++;
        closeViews(k);
    }

    /** Close the kind's views, if any were taken (closing a shared arena costs a handshake). */
    private void closeViews(int k) {
        if (viewed[k]) {
            viewed[k] = false;
            views[k].close();
            views[k] = Arena.ofShared();
        }
    }

    private void staleKinds(Kind kind) {
        if (kind != null) {
            staleKind(kind.ordinal());
        } else {
            for (int k = 0; k < 6; k++) {
                staleKind(k);
            }
        }
    }

    /** The arena of the records views and columns of a kind: closed when the kind's entries change. */
    private Arena viewArena(Kind kind) {
        int k = kind.ordinal();
        if (!viewed[k]) {
            viewed[k] = true;
        }
        return views[k];
    }

    MemorySegment view(Kind kind, MemorySegment raw, long bytes) {
        return raw.reinterpret(bytes, viewArena(kind), null).asReadOnly();
    }

    Type type(MemorySegment raw) {
        return raw.address() == 0 ? null : new Type(this, raw);
    }

    Method method(MemorySegment raw) {
        return raw.address() == 0 ? null : new Method(this, raw);
    }

    Context context(MemorySegment raw) {
        return raw.address() == 0 ? null : new Context(this, raw);
    }

    Entry entry(Kind kind, MemorySegment raw) {
        return raw.address() == 0 ? null : new Entry(this, kind, raw);
    }

    /** Throw the model's report of a failed operation. */
    void check(int rc) {
        if (rc == 0) {
            return;
        }
        throw error(rc);
    }

    /** A removal's status: false when there was nothing to remove (ENOTFOUND), else checked. */
    private boolean removed(int rc) {
        if (rc == Status.ENOTFOUND.code()) {
            return false;
        }
        check(rc);
        return true;
    }

    IprofException error(int rc) {
        try {
            MemorySegment e = (MemorySegment) Native.MODEL_ERROR.invokeExact(h.ptr());
            if (e.address() != 0) {
                return new IprofException(Report.of(e), null, List.of(), 0);
            }
            String msg = Native.cstr((MemorySegment) Native.STATUS_STRING.invokeExact(rc));
            return new IprofException(Status.of(rc), msg);
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    interface Sized {
        long call(MemorySegment buf, long size);
    }

    /** The text of a snprintf-convention function. */
    static String snprintf(Sized f) {
        byte[] b = new byte[256];
        long n = f.call(MemorySegment.ofArray(b), b.length);
        if (n >= b.length) {
            b = new byte[(int) n + 1];
            n = f.call(MemorySegment.ofArray(b), b.length);
        }
        return new String(b, 0, (int) n, StandardCharsets.UTF_8);
    }

    static MemorySegment frames(Arena a, List<Frame> frames) {
        MemorySegment s = a.allocate(ValueLayout.JAVA_LONG, Math.max(1, 2L * frames.size()));
        for (int i = 0; i < frames.size(); i++) {
            s.setAtIndex(ValueLayout.JAVA_LONG, 2L * i, frames.get(i).methodId());
            s.setAtIndex(ValueLayout.JAVA_LONG, 2L * i + 1, frames.get(i).bci());
        }
        return s;
    }

    static MemorySegment longs(Arena a, long[] v) {
        MemorySegment s = a.allocate(ValueLayout.JAVA_LONG, Math.max(1, v.length));
        MemorySegment.copy(v, 0, s, ValueLayout.JAVA_LONG, 0, v.length);
        return s;
    }

    // ---- what the load said ---------------------------------------------

    /** {@return the diagnostics of the load (warnings; rule violations of a lenient load)} */
    public List<Report> diagnostics() {
        return diagnostics;
    }

    /** {@return how many error diagnostics the load found beyond those kept} */
    public long diagnosticsDroppedErrors() {
        return droppedErrors;
    }

    /** {@return how many warning diagnostics the load found beyond those kept} */
    public long diagnosticsDroppedWarnings() {
        return droppedWarnings;
    }

    /** {@return where a salvaging load stopped at damage, or null when it read everything} */
    public Report damage() {
        return damage;
    }

    // ---- version, spelling, unknown keys -----------------------------------

    /** {@return the format version, "1.1.0"} */
    public String version() {
        try {
            return Native.cstr((MemorySegment) Native.MODEL_VERSION.invokeExact(ptr()));
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /**
     * Change the format version the model records (and a write writes by default).
     * @param version "1.0.0", "0.2.0" ...
     * @throws IprofException EVERSION for a version the writer cannot write
     */
    public void setVersion(String version) {
        try (Arena a = Arena.ofConfined()) {
            check((int) Native.MODEL_SET_VERSION.invokeExact(mut(), Native.utf8(a, version)));
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /** {@return the spelling of the instanceof key the model was read with (AUTO: none)} */
    public InstanceofKey instanceofKey() {
        try {
            return InstanceofKey.values()[(int) Native.MODEL_INSTANCEOF_KEY.invokeExact(ptr())];
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /**
     * Set the spelling of the instanceof key a write uses by default.
     * @param key the spelling
     */
    public void setInstanceofKey(InstanceofKey key) {
        try {
            check((int) Native.MODEL_SET_INSTANCEOF_KEY.invokeExact(mut(), key.ordinal()));
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /** {@return the unknown top-level keys, in file order, with their raw JSON} */
    public List<UnknownKey> unknownKeys() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment p = ptr();
            long n = (long) Native.MODEL_UNKNOWN_COUNT.invokeExact(p);
            MemorySegment key = a.allocate(ValueLayout.ADDRESS);
            MemorySegment json = a.allocate(ValueLayout.ADDRESS);
            long[] kl = new long[1];
            long[] jl = new long[1];
            List<UnknownKey> out = new ArrayList<>();
            for (long i = 0; i < n; i++) {
                int rc = (int) Native.MODEL_UNKNOWN_AT.invokeExact(p, i, key, MemorySegment.ofArray(kl), json,
                                                                    MemorySegment.ofArray(jl));
                check(rc);
                out.add(new UnknownKey(Native.str(key.get(ValueLayout.ADDRESS, 0), kl[0]),
                                       Native.str(json.get(ValueLayout.ADDRESS, 0), jl[0])));
            }
            return out;
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /**
     * Add an unknown top-level key, written after every section.
     * @param key the key (not one the library interprets)
     * @param json exactly one JSON value
     * @throws IprofException EINVAL for a key the library interprets, ESYNTAX for bad JSON
     */
    public void addUnknown(String key, String json) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment k = Native.utf8(a, key);
            MemorySegment j = Native.utf8(a, json);
            check((int) Native.MODEL_ADD_UNKNOWN.invokeExact(mut(), k, Native.len(k), j, Native.len(j)));
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /**
     * Remove every unknown top-level key named {@code key}.
     * @param key the key
     * @return false when there was none
     */
    public boolean removeUnknown(String key) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment k = Native.utf8(a, key);
            return removed((int) Native.MODEL_REMOVE_UNKNOWN.invokeExact(mut(), k, Native.len(k)));
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /** Remove every unknown top-level key (none kept: nothing to do). */
    public void removeUnknown() {
        try {
            check((int) Native.MODEL_REMOVE_UNKNOWN.invokeExact(mut(), MemorySegment.NULL, 0L));
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /** {@return how many elements of the input held keys the model does not read} */
    public long unreadCount() {
        try {
            return (long) Native.MODEL_UNREAD_COUNT.invokeExact(ptr(), MemorySegment.NULL);
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    // ---- types -------------------------------------------------------------

    private abstract class Elements<T> extends AbstractList<T> implements RandomAccess {
        private final int gen;
        private final int size;

        Elements(int gen, long size) {
            this.gen = gen;
            this.size = (int) size;
        }

        abstract int currentGen();

        abstract T at(long i);

        @Override
        public T get(int i) {
            ptr();
            if (gen != currentGen()) {
                throw new StaleException("this list was invalidated by a change to the model; take it again");
            }
            if (i < 0 || i >= size) {
                throw new IndexOutOfBoundsException("index " + i + " of " + size);
            }
            return at(i);
        }

        @Override
        public int size() {
            return size;
        }
    }

    /** {@return the number of types} */
    public int typeCount() {
        try {
            return (int) (long) Native.MODEL_TYPE_COUNT.invokeExact(ptr());
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /** {@return the types in file order (a live view: stale after a removal of types)} */
    public List<Type> types() {
        return new Elements<>(typeGen, typeCount()) {
            int currentGen() {
                return typeGen;
            }

            Type at(long i) {
                try {
                    return type((MemorySegment) Native.MODEL_TYPE_AT.invokeExact(ptr(), i));
                } catch (Throwable t) {
                    throw Native.rethrow(t);
                }
            }
        };
    }

    /**
     * {@return the type, or null}
     * @param id a type id
     */
    public Type typeById(long id) {
        try {
            return type((MemorySegment) Native.MODEL_TYPE_BY_ID.invokeExact(ptr(), id));
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /**
     * {@return the (first) type of that name, or null}
     * @param name a type name
     */
    public Type typeByName(String name) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment n = Native.utf8(a, name);
            return type((MemorySegment) Native.MODEL_TYPE_BY_NAME.invokeExact(ptr(), n, Native.len(n)));
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    // ---- methods -----------------------------------------------------------

    /** {@return the number of methods} */
    public int methodCount() {
        try {
            return (int) (long) Native.MODEL_METHOD_COUNT.invokeExact(ptr());
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /** {@return the methods in file order (a live view: stale after a removal of methods)} */
    public List<Method> methods() {
        return new Elements<>(methodGen, methodCount()) {
            int currentGen() {
                return methodGen;
            }

            Method at(long i) {
                try {
                    return method((MemorySegment) Native.MODEL_METHOD_AT.invokeExact(ptr(), i));
                } catch (Throwable t) {
                    throw Native.rethrow(t);
                }
            }
        };
    }

    /**
     * {@return the method, or null}
     * @param id a method id
     */
    public Method methodById(long id) {
        try {
            return method((MemorySegment) Native.MODEL_METHOD_BY_ID.invokeExact(ptr(), id));
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /**
     * {@return the method, or null}
     * @param name the method name
     * @param signature declaring type id, return type id, parameter type ids
     */
    public Method methodFind(String name, long... signature) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment n = Native.utf8(a, name);
            return method((MemorySegment) Native.MODEL_METHOD_FIND.invokeExact(ptr(), n, Native.len(n),
                    longs(a, signature), (long) signature.length));
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /**
     * {@return its readable name, "Fib.fibonacci"}
     * @param method a method of this model
     */
    public String describe(Method method) {
        return method.describe();
    }

    /** {@return the number of distinct contexts interned} */
    public long contextCount() {
        try {
            return (long) Native.MODEL_CONTEXT_COUNT.invokeExact(ptr());
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    // ---- entries -----------------------------------------------------------

    /**
     * {@return the number of entries of that kind}
     * @param kind a kind
     */
    public int entryCount(Kind kind) {
        try {
            return (int) (long) Native.MODEL_ENTRY_COUNT.invokeExact(ptr(), kind.code());
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /**
     * {@return the entry, or null when out of range}
     * @param kind a kind
     * @param index 0 .. entryCount(kind) - 1
     */
    public Entry entryAt(Kind kind, long index) {
        try {
            return entry(kind, (MemorySegment) Native.MODEL_ENTRY_AT.invokeExact(ptr(), kind.code(), index));
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /**
     * {@return its entries in file order (a live view: stale after a change to entries of the kind)}
     * @param kind a kind
     */
    public List<Entry> entries(Kind kind) {
        int k = kind.ordinal();
        return new Elements<>(kindGen[k], entryCount(kind)) {
            int currentGen() {
                return kindGen[k];
            }

            Entry at(long i) {
                return entryAt(kind, i);
            }
        };
    }

    /**
     * {@return the entry of that kind with that context, or null}
     * @param kind a kind
     * @param frames its context, callee first
     */
    public Entry findEntry(Kind kind, List<Frame> frames) {
        try (Arena a = Arena.ofConfined()) {
            return entry(kind, (MemorySegment) Native.MODEL_ENTRY_FIND.invokeExact(ptr(), kind.code(),
                    frames(a, frames), (long) frames.size()));
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /**
     * {@return the entry, or null}
     * @param kind a kind
     * @param ctx its context as ctx text, "5:0&lt;3:2"
     */
    public Entry findEntry(Kind kind, String ctx) {
        return findEntry(kind, Frame.parse(ctx));
    }

    /**
     * {@return the entry, or null}
     * @param kind a kind
     * @param context a context of this model
     */
    public Entry findEntry(Kind kind, Context context) {
        return findEntry(kind, context.frames());
    }

    /** What {@link #visitRecords} calls for each entry. */
    @FunctionalInterface
    public interface RecordsVisitor {
        /**
         * Called for one entry.
         * @param index the entry's index in its kind, in file order
         * @param records its records: a read-only view of {@code JAVA_LONG}s, without a copy,
         *        valid as the entry is (until a change to entries of the kind, or the close)
         */
        void visit(int index, MemorySegment records);
    }

    /**
     * Visit the records of every entry of a kind, in file order, without creating an
     * {@link Entry} per entry: the fast way to read a whole model (two C calls per entry,
     * linked as critical, and a view of the records in place). The visitor may read the
     * model, not change or close it ({@link IllegalStateException}).
     * @param kind the kind
     * @param visitor called for each entry
     */
    public void visitRecords(Kind kind, RecordsVisitor visitor) {
        MemorySegment p = ptr();
        int k = kind.code();
        long[] len = new long[1];
        MemorySegment lenOut = MemorySegment.ofArray(len);
        busy++;
        try {
            long n = (long) Native.MODEL_ENTRY_COUNT.invokeExact(p, k);
            Arena va = viewArena(kind);
            for (long i = 0; i < n; i++) {
                MemorySegment e = (MemorySegment) Native.MODEL_ENTRY_AT.invokeExact(p, k, i);
                MemorySegment r = (MemorySegment) Native.ENTRY_RECORDS.invokeExact(e, lenOut);
                visitor.visit((int) i, r.reinterpret(len[0] * 8, va, null).asReadOnly());
            }
        } catch (Throwable t) {
            throw Native.rethrow(t);
        } finally {
            busy--;
        }
    }

    /**
     * Every entry of a kind as columns, without a copy (C: {@code iprof_model_get_columns}):
     * its records in one read-only {@code JAVA_LONG} segment with offsets, its contexts'
     * frames in another; the fast way to hand a whole kind to analysis. The C model builds
     * the arrays on the first call for the kind (one pass over its entries) and keeps them
     * until entries of the kind change; until then this returns the same object. They are
     * valid while the model is open and the kind unchanged; then reading them throws (see
     * {@link Columns}).
     * @param kind the kind
     * @return the columns ({@code count()} 0 and empty segments for a kind without entries)
     * @throws IprofException ENOMEM when the first call cannot build them
     */
    public Columns columns(Kind kind) {
        MemorySegment p = ptr();
        int k = kind.ordinal();
        // Readers on several threads may each make one: both are valid (final fields), one stays.
        Columns c = columns[k];
        if (c == null || !c.current()) {
            c = new Columns(this, kind, p);
            columns[k] = c;
        }
        return c;
    }

    // ---- edits -------------------------------------------------------------

    /**
     * Add a type.
     * @param id its id (unused)
     * @param name its name
     * @return the new type
     * @throws IprofException ESCHEMA when the id is taken
     */
    public Type addType(long id, String name) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment n = Native.utf8(a, name);
            MemorySegment out = Handle.out(a);
            check((int) Native.MODEL_ADD_TYPE.invokeExact(mut(), id, n, Native.len(n), out));
            return type(out.get(ValueLayout.ADDRESS, 0));
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /**
     * Add a method.
     * @param id its id (unused)
     * @param name its name
     * @param signature declaring type id, return type id, parameter type ids (defined types)
     * @return the new method
     * @throws IprofException ESCHEMA for a taken id, EDANGLING for an undefined type id
     */
    public Method addMethod(long id, String name, long... signature) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment n = Native.utf8(a, name);
            MemorySegment out = Handle.out(a);
            check((int) Native.MODEL_ADD_METHOD.invokeExact(mut(), id, n, Native.len(n), longs(a, signature),
                    (long) signature.length, out));
            return method(out.get(ValueLayout.ADDRESS, 0));
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /**
     * Add an entry, or combine records into the entry of that kind and context.
     * @param kind its kind
     * @param frames its context, callee first
     * @param records its records, by the kind's layout
     * @return the entry (combined)
     * @throws IprofException ESCHEMA for records breaking the layout, EDANGLING for undefined ids
     */
    public Entry addEntry(Kind kind, List<Frame> frames, long... records) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment f = frames(a, frames);
            MemorySegment p = mut();
            staleKind(kind.ordinal());
            check((int) Native.MODEL_ADD_ENTRY.invokeExact(p, kind.code(), f, (long) frames.size(), longs(a, records),
                    (long) records.length));
            return findEntry(kind, frames);
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /**
     * Replace the records of the entry of a kind and context (not combined).
     * @param kind its kind
     * @param frames its context
     * @param records the new records
     * @return the entry
     * @throws IprofException ENOTFOUND (with kind and context) when there is no such entry
     */
    public Entry setEntryRecords(Kind kind, List<Frame> frames, long... records) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment f = frames(a, frames);
            MemorySegment p = mut();
            staleKind(kind.ordinal());
            check((int) Native.MODEL_SET_ENTRY_RECORDS.invokeExact(p, kind.code(), f, (long) frames.size(),
                    longs(a, records), (long) records.length));
            return findEntry(kind, frames);
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /**
     * Remove a type; methods and records naming it then dangle (a write refuses them).
     * @param id its id
     * @return false when there was none
     */
    public boolean removeType(long id) {
        try {
            MemorySegment p = mut();
            typeGen++;
            return removed((int) Native.MODEL_REMOVE_TYPE.invokeExact(p, id));
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /**
     * Remove a method, and with {@code cascade} every entry of any kind that names it in any
     * frame (IPROF_REMOVE_CASCADE); without, the entries naming it stay (a write refuses them).
     * @param id its id
     * @param cascade also remove the entries naming it
     * @return false when there was none (nothing changed)
     */
    public boolean removeMethod(long id, boolean cascade) {
        try {
            MemorySegment p = mut();
            methodGen++;
            if (cascade) {
                staleKinds(null);
            }
            int flags = cascade ? REMOVE_CASCADE : 0;
            return removed((int) Native.MODEL_REMOVE_METHOD.invokeExact(p, id, flags));
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /**
     * Remove the entry of a kind and context.
     * @param kind its kind
     * @param frames its context
     * @return false when there was none
     */
    public boolean removeEntry(Kind kind, List<Frame> frames) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment f = frames(a, frames);
            MemorySegment p = mut();
            staleKind(kind.ordinal());
            return removed((int) Native.MODEL_REMOVE_ENTRY.invokeExact(p, kind.code(), f, (long) frames.size()));
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /** The Java side of map_records: the function to call. */
    private final class MapRecords extends Session {
        private final RecordsFunction records;
        private final Kind kind;

        MapRecords(RecordsFunction r, Kind k) {
            records = r;
            kind = k;
        }

        int mapRecords(MemorySegment e, MemorySegment recs, long n, MemorySegment payload) {
            try {
                MemorySegment r = recs.reinterpret(n * 8);
                long[] copy = r.toArray(ValueLayout.JAVA_LONG);
                long[] result = records.apply(Model.this.entry(kind, e), copy);
                if (result == null) {
                    result = copy;
                }
                if (result.length != n) {
                    throw new IllegalArgumentException("mapRecords: " + result.length + " records for an entry of "
                            + n + "; the count must stay");
                }
                MemorySegment.copy(result, 0, r, ValueLayout.JAVA_LONG, 0, (int) n);
                return 0;
            } catch (Throwable t) {
                return fail(t);
            }
        }
    }

    /** New records for an entry ({@link #mapRecords}). */
    @FunctionalInterface
    public interface RecordsFunction {
        /**
         * {@return null, or as many new records}
         * @param entry the entry (valid during the call)
         * @param records a copy of its records: edit it and return null, or return new records
         */
        long[] apply(Entry entry, long[] records);
    }

    /**
     * Rewrite the records of every entry of a kind; nothing changes unless every call
     * succeeds and the new records pass the kind's checks.
     * @param kind the kind
     * @param fn called for each entry with a copy of its records
     */
    public void mapRecords(Kind kind, RecordsFunction fn) {
        MemorySegment p = mut();
        MapRecords r = new MapRecords(fn, kind);
        MemorySegment stub = r.stub(Fn.Up.RECORDS_FN, "mapRecords");
        busy++;
        int rc;
        try {
            rc = (int) Native.MODEL_MAP_RECORDS.invokeExact(p, kind.code(), stub, MemorySegment.NULL);
        } catch (Throwable t) {
            throw Native.rethrow(t);
        } finally {
            busy--;
            staleKind(kind.ordinal());
            r.close();
        }
        r.rethrow();
        check(rc);
    }

    /**
     * Multiply the count slots of one kind, or all, by a weight (ids, bcis, indexes untouched).
     * @param weight finite and &gt;= 0
     * @param kind the kind, or null for every kind
     * @param rounding how fractional products are rounded
     * @throws IprofException EINVAL for a bad weight, the model unchanged
     */
    public void scale(double weight, Kind kind, Rounding rounding) {
        try {
            MemorySegment p = mut();
            staleKinds(kind);
            check((int) Native.MODEL_SCALE.invokeExact(p, kind == null ? -1 : kind.code(), weight, rounding.ordinal()));
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    // ---- merge -------------------------------------------------------------

    /**
     * Merge another model into this one, its counts times {@code weight}.
     * @param other the source (only read)
     * @param weight finite and &gt;= 0
     * @throws IprofException EINVAL for a bad weight, EDANGLING, ESCHEMA; this model unchanged
     */
    public void merge(Model other, double weight) {
        merge(other, MergeOptions.defaults().withWeight(weight));
    }

    /**
     * Merge another model into this one.
     * @param other the source (only read; not this model)
     * @param options weight, rounding, unknown keys
     * @throws IprofException on failure, this model unchanged
     */
    public void merge(Model other, MergeOptions options) {
        if (other == this) {
            throw new IllegalArgumentException("a model cannot be merged into itself");
        }
        try (Arena a = Arena.ofConfined()) {
            MemorySegment o = options.toC(a);
            MemorySegment src = other.ptr();
            MemorySegment p = mut();
            staleKinds(null);
            check((int) Native.MODEL_MERGE.invokeExact(p, src, o));
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /**
     * Merge a file into this model as it is read (all or nothing).
     * @param path the file
     * @param options the merge options
     * @param read the read options
     */
    public void mergeFrom(Path path, MergeOptions options, ReadOptions read) {
        mergeFrom(path, null, null, options, read);
    }

    /**
     * Merge a document in memory into this model as it is read (all or nothing).
     * @param data the document
     * @param options the merge options
     * @param read the read options
     */
    public void mergeFrom(byte[] data, MergeOptions options, ReadOptions read) {
        mergeFrom(null, data, null, options, read);
    }

    /**
     * Merge a stream into this model as it is read (all or nothing); the stream may not use
     * this model.
     * @param in the stream, read to its end
     * @param options the merge options
     * @param read the read options
     */
    public void mergeFrom(InputStream in, MergeOptions options, ReadOptions read) {
        mergeFrom(null, null, in, options, read);
    }

    private void mergeFrom(Path path, byte[] data, InputStream in, MergeOptions options, ReadOptions read) {
        try (Reader reader = new Reader(read); Session s = new Session()) {
            MemorySegment o = options.toC(s.arena);
            MemorySegment p = mut();
            MemorySegment r = reader.ptr();
            staleKinds(null);
            MemorySegment src = s.source(path, data, in);
            int rc;
            exclusive = true;
            try {
                rc = (int) Native.MODEL_MERGE_SOURCE.invokeExact(p, r, src, o);
            } catch (Throwable t) {
                throw Native.rethrow(t);
            } finally {
                exclusive = false;
            }
            s.rethrow();
            if (rc != 0) {
                IprofException e = error(rc);
                throw path == null ? e : new IprofException(e.report(), path.toString(), List.of(), 0);
            }
        }
    }

    // ---- transforms --------------------------------------------------------

    /** Rewrite the model into its canonical form; every element taken before goes stale. */
    public void canonicalize() {
        canonicalize(false);
    }

    /**
     * Rewrite the model into its canonical form.
     * @param dropUnknown drop unknown keys that hold ids instead of failing (IPROF_CANONICAL_DROP_UNKNOWN)
     * @throws IprofException ESCHEMA naming an unknown key that holds ids, EDANGLING
     */
    public void canonicalize(boolean dropUnknown) {
        try {
            MemorySegment p = mut();
            typeGen++;
            methodGen++;
            ctxGen++;
            staleKinds(null);
            check((int) Native.MODEL_CANONICALIZE.invokeExact(p, dropUnknown ? 1 : 0));
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /**
     * Keep what the options accept, in their order of steps (see {@link FilterOptions}):
     * kinds, predicates over frames and entries, packages, minimum and top percentage, cut
     * contexts, the dropped packages' methods and types, predicates over methods and types.
     * What is unreferenced afterwards stays ({@link #prune}). Types, methods and entries
     * taken before go stale.
     * @param options what to keep
     * @throws IprofException EINVAL for a negative or NaN percentage, the model unchanged
     * @throws IllegalStateException when a predicate changes or closes the model, which stays
     *         as it was (so does it after any exception from a predicate)
     */
    public void filter(FilterOptions options) {
        try (Keep keep = Keep.of(this, options); Arena a = Arena.ofConfined()) {
            MemorySegment o = options.toC(a, keep);
            MemorySegment p = mut();
            typeGen++;
            methodGen++;
            staleKinds(null);
            int rc = (int) Native.MODEL_FILTER.invokeExact(p, o);
            keep.rethrow();
            check(rc);
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /** What {@link #prune} removes. */
    public enum Prune {
        /**
         * The methods whose signature names a type the model does not define, then the
         * entries whose context names an undefined method or whose records name an undefined
         * type (what a salvaging load may keep of a damaged file); done first.
         */
        DANGLING(4),
        /** The methods no entry mentions in any frame. */
        METHODS(1),
        /** The types no method signature and no record mentions; after the methods. */
        TYPES(2);

        private final int bit;

        Prune(int bit) {
            this.bit = bit;
        }
    }

    /**
     * Remove what the references make useless, in the order of {@link Prune}. The
     * unreferenced (METHODS, TYPES) are not removed while the model keeps an unknown key
     * that may hold ids. Methods taken before go stale with METHODS or DANGLING, types
     * with TYPES, entries with DANGLING.
     * @param what what to remove (none: nothing to do)
     */
    public void prune(Prune... what) {
        int bits = 0;
        for (Prune w : what) {
            bits |= w.bit;
        }
        if (bits == 0) {
            return;
        }
        try {
            MemorySegment p = mut();
            if ((bits & (Prune.METHODS.bit | Prune.DANGLING.bit)) != 0) {
                methodGen++;
            }
            if ((bits & Prune.TYPES.bit) != 0) {
                typeGen++;
            }
            if ((bits & Prune.DANGLING.bit) != 0) {
                staleKinds(null);
            }
            check((int) Native.MODEL_PRUNE.invokeExact(p, bits));
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /**
     * Build every lookup index now, so that later lookups from several threads never allocate.
     */
    public void buildIndexes() {
        try {
            check((int) Native.MODEL_BUILD_INDEXES.invokeExact(mut()));
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    // ---- analysis ----------------------------------------------------------

    /**
     * The hottest methods: per callee method of the kind's entries, the sum of their totals.
     * @param kind the kind
     * @param limit at most this many (hottest first, ties by id); 0 or less: all
     * @return the totals
     */
    public List<MethodTotal> methodTotals(Kind kind, int limit) {
        // At most one method per entry: entryCount bounds the result, so one call does.
        int entries = entryCount(kind);
        long cap = limit > 0 ? Math.min(limit, entries) : entries;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment ids = a.allocate(ValueLayout.JAVA_LONG, Math.max(1, cap));
            MemorySegment totals = a.allocate(ValueLayout.JAVA_LONG, Math.max(1, cap));
            MemorySegment count = a.allocate(ValueLayout.JAVA_LONG);
            check((int) Native.MODEL_METHOD_TOTALS.invokeExact(ptr(), kind.code(), ids, totals, cap, count));
            long n = Math.min(cap, count.get(ValueLayout.JAVA_LONG, 0));
            List<MethodTotal> out = new ArrayList<>((int) n);
            for (long i = 0; i < n; i++) {
                out.add(new MethodTotal(ids.getAtIndex(ValueLayout.JAVA_LONG, i),
                                        totals.getAtIndex(ValueLayout.JAVA_LONG, i)));
            }
            return out;
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /**
     * Compare this model (A) with another (B).
     * @param b model B (may be this one)
     * @param top changed entries kept per kind; 0: 10
     * @return the result (close it); both models must stay unchanged while it is used
     */
    public Diff diff(Model b, int top) {
        return new Diff(this, b, top);
    }

    // ---- writing -----------------------------------------------------------

    /**
     * Write the model to a path, atomically (gzip for a name ending in ".gz").
     * @param path the target
     * @param options the write options
     * @throws IprofException when the model cannot be written as asked, the file untouched
     */
    public void write(Path path, WriteOptions options) {
        try (Writer w = Writer.toPath(path, options)) {
            w.writeModel(this);
        }
    }

    /**
     * Write the model to a stream (not closed).
     * @param out the stream; it may read the model, not change it
     * @param options the write options
     */
    public void write(OutputStream out, WriteOptions options) {
        try (Writer w = Writer.toStream(out, options)) {
            w.writeModel(this);
        }
    }

    /**
     * {@return the document's bytes}
     * @param options the write options
     */
    public byte[] toBytes(WriteOptions options) {
        try (Writer w = Writer.toMemory(options)) {
            w.writeModel(this);
            return w.bytes();
        }
    }

    /** {@return the document's bytes with the default options} */
    public byte[] toBytes() {
        return toBytes(WriteOptions.defaults());
    }

    void busy(boolean on) {
        busy += on ? 1 : -1;
    }

    /**
     * Free the C model. Everything it handed out throws afterwards; closing twice does
     * nothing.
     * @throws IllegalStateException while a callback of this model runs, or while another
     *         thread is inside a call on it (the model then stays open)
     */
    @Override
    public void close() {
        if (busy > 0 || exclusive) {
            throw new IllegalStateException("this Model may not be closed from inside its own callback");
        }
        for (int k = 0; k < 6; k++) {
            closeViews(k);
        }
        h.close();
    }

    /** {@return "Model(version, N types, N methods)"} */
    @Override
    public String toString() {
        return isClosed() ? "Model(closed)" : "Model(" + version() + ", " + typeCount() + " types, "
                + methodCount() + " methods)";
    }
}
