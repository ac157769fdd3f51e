package org.libiprof;

import java.util.EnumMap;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * The callbacks of a streaming read ({@link Reader#read}): one per element
 * class, and per profile kind. Only the callbacks set are called (and only
 * their upcall stubs made). A callback may throw {@link StopRead} to stop
 * the read quietly; any other exception stops it and is rethrown by the
 * read. What a callback receives is valid during the call only.
 * <pre>{@code
 * new Callbacks().onKind(Kind.CALL_COUNT, e -> total[0] += e.record(0))
 *                .onType((id, name) -> names.put(id, name));
 * }</pre>
 */
public final class Callbacks {
    /** A type of the document: its id and name. */
    @FunctionalInterface
    public interface TypeHandler {
        /**
         * Called for one type.
         * @param id the type id
         * @param name its name
         */
        void type(long id, String name);
    }

    Consumer<String> version;
    TypeHandler type;
    Consumer<MethodEvent> method;
    final Map<Kind, Consumer<EntryEvent>> entries = new EnumMap<>(Kind.class);
    BiConsumer<String, String> unknown;
    BiConsumer<String, Section> key;

    /** Callbacks that do nothing (a read then only validates). */
    public Callbacks() {
    }

    /**
     * {@return this}
     * @param f called with the "version" string
     */
    public Callbacks onVersion(Consumer<String> f) {
        version = f;
        return this;
    }

    /**
     * {@return this}
     * @param f called for each type
     */
    public Callbacks onType(TypeHandler f) {
        type = f;
        return this;
    }

    /**
     * {@return this}
     * @param f called for each method
     */
    public Callbacks onMethod(Consumer<MethodEvent> f) {
        method = f;
        return this;
    }

    /**
     * {@return this}
     * @param f called for each entry of every kind
     */
    public Callbacks onEntry(Consumer<EntryEvent> f) {
        for (Kind k : Kind.values()) {
            entries.put(k, f);
        }
        return this;
    }

    /**
     * {@return this}
     * @param kind the kind
     * @param f called for each entry of {@code kind} (replacing what {@link #onEntry} set for it)
     */
    public Callbacks onKind(Kind kind, Consumer<EntryEvent> f) {
        entries.put(kind, f);
        return this;
    }

    /**
     * {@return this}
     * @param f called for each top-level key the library does not know, with its raw JSON value
     */
    public Callbacks onUnknown(BiConsumer<String, String> f) {
        unknown = f;
        return this;
    }

    /**
     * {@return this}
     * @param f called at each top-level key, before its value, with what it is
     */
    public Callbacks onKey(BiConsumer<String, Section> f) {
        key = f;
        return this;
    }
}
