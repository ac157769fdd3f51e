package org.libiprof;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.ValueLayout;

import static org.libiprof.Fn.C.A;
import static org.libiprof.Fn.C.D;
import static org.libiprof.Fn.C.I;
import static org.libiprof.Fn.C.L;

/**
 * The one table of the C functions this binding calls: symbol, descriptor
 * and whether the call is "critical" (short, never calls back into Java:
 * linked with {@code Linker.Option.critical(true)}, which skips the
 * thread-state transition, and may be given heap segments: out-parameters
 * are Java arrays). {@link Native} links one handle per constant,
 * and the Native Image metadata (META-INF/native-image/.../
 * reachability-metadata.json) is generated from this table by
 * {@link Metadata}; a test checks that the three agree.
 *
 * <p>Only functions of the 1.0 API (TableTest checks every row is
 * exported).
 *
 * <p>C {@code size_t} is {@code JAVA_LONG}: the binding supports 64-bit
 * platforms only, where the two are the same layout.
 */
enum Fn {
    // <iprof/iprof.h>, the core
    STATUS_STRING("iprof_status_string", true, A, I),
    VERSION_STRING("iprof_version_string", true, A),
    FEATURES("iprof_features", true, I),
    ERROR_GET_INFO("iprof_error_get_info", true, I, A, A),
    READ_OPTIONS_INIT("iprof_read_options_init", true, I, A, I),
    READER_NEW("iprof_reader_new", false, I, A, A),
    READER_FREE("iprof_reader_free", false, null, A),
    READER_ERROR("iprof_reader_error", true, A, A),
    READER_DIAG("iprof_reader_diag", true, A, A, L),
    READER_GET_RESULT("iprof_reader_get_result", true, I, A, A),
    MODEL_NEW("iprof_model_new", false, I, A, A),
    MODEL_FREE("iprof_model_free", false, null, A),
    MODEL_LOAD("iprof_model_load", false, I, A, A, A),
    MODEL_VERSION("iprof_model_version", true, A, A),
    MODEL_BUILD_INDEXES("iprof_model_build_indexes", false, I, A),
    MODEL_UNREAD_COUNT("iprof_model_unread_count", true, L, A, A),
    MODEL_ERROR("iprof_model_error", true, A, A),
    MODEL_TYPE_COUNT("iprof_model_type_count", true, L, A),
    MODEL_TYPE_AT("iprof_model_type_at", true, A, A, L),
    MODEL_TYPE_BY_ID("iprof_model_type_by_id", true, A, A, L),
    MODEL_TYPE_BY_NAME("iprof_model_type_by_name", false, A, A, A, L),
    TYPE_ID("iprof_type_id", true, L, A),
    TYPE_NAME("iprof_type_name", true, A, A, A),
    MODEL_METHOD_COUNT("iprof_model_method_count", true, L, A),
    MODEL_METHOD_AT("iprof_model_method_at", true, A, A, L),
    MODEL_METHOD_BY_ID("iprof_model_method_by_id", true, A, A, L),
    MODEL_METHOD_FIND("iprof_model_method_find", false, A, A, A, L, A, L),
    METHOD_ID("iprof_method_id", true, L, A),
    METHOD_NAME("iprof_method_name", true, A, A, A),
    METHOD_SIGNATURE("iprof_method_signature", true, A, A, A),
    MODEL_METHOD_DESCRIBE("iprof_model_method_describe", true, L, A, A, A, L),
    CONTEXT_DEPTH("iprof_context_depth", true, L, A),
    CONTEXT_METHOD_ID("iprof_context_method_id", true, L, A),
    CONTEXT_BCI("iprof_context_bci", true, L, A),
    CONTEXT_CALLER("iprof_context_caller", true, A, A),
    CONTEXT_FRAMES("iprof_context_frames", true, L, A, A, L),
    CONTEXT_FORMAT("iprof_context_format", true, L, A, A, L),
    MODEL_CONTEXT_DESCRIBE("iprof_model_context_describe", true, L, A, A, A, L),
    MODEL_CONTEXT_COUNT("iprof_model_context_count", true, L, A),
    MODEL_ENTRY_COUNT("iprof_model_entry_count", true, L, A, I),
    MODEL_ENTRY_AT("iprof_model_entry_at", true, A, A, I, L),
    MODEL_ENTRY_FIND("iprof_model_entry_find", false, A, A, I, A, L),
    ENTRY_KIND("iprof_entry_kind", true, I, A),
    ENTRY_CONTEXT("iprof_entry_context", true, A, A),
    ENTRY_RECORDS("iprof_entry_records", true, A, A, A),
    MERGE_OPTIONS_INIT("iprof_merge_options_init", true, I, A, I),
    /** 1.0's iprof_model_merge(dst, src, opts) under its 0.x name until phase C renames it. */
    MODEL_MERGE("iprof_model_merge", false, I, A, A, A),
    MODEL_MERGE_SOURCE("iprof_model_merge_source", false, I, A, A, A, A),
    WRITE_OPTIONS_INIT("iprof_write_options_init", true, I, A, I),
    WRITER_NEW("iprof_writer_new", false, I, A, A, A),
    WRITER_FREE("iprof_writer_free", false, null, A),
    WRITER_WRITE_MODEL("iprof_writer_write_model", false, I, A, A),
    WRITER_ERROR("iprof_writer_error", true, A, A),
    WRITER_BUFFER("iprof_writer_buffer", true, I, A, A, A),
    // <iprof/stream.h>
    READER_READ("iprof_reader_read", false, I, A, A, A, A),
    WRITER_BEGIN("iprof_writer_begin", false, I, A, A),
    WRITER_TYPE("iprof_writer_type", false, I, A, L, A, L),
    WRITER_METHOD("iprof_writer_method", false, I, A, L, A, L, A, L),
    WRITER_ENTRY("iprof_writer_entry", false, I, A, I, A, L, A, L),
    WRITER_UNKNOWN("iprof_writer_unknown", false, I, A, A, L, A, L),
    WRITER_END("iprof_writer_end", false, I, A),
    // <iprof/edit.h>
    MODEL_SET_VERSION("iprof_model_set_version", false, I, A, A),
    MODEL_ADD_TYPE("iprof_model_add_type", false, I, A, L, A, L, A),
    MODEL_REMOVE_TYPE("iprof_model_remove_type", false, I, A, L),
    MODEL_ADD_METHOD("iprof_model_add_method", false, I, A, L, A, L, A, L, A),
    MODEL_REMOVE_METHOD("iprof_model_remove_method", false, I, A, L, I),
    MODEL_ADD_ENTRY("iprof_model_add_entry", false, I, A, I, A, L, A, L),
    MODEL_REMOVE_ENTRY("iprof_model_remove_entry", false, I, A, I, A, L),
    MODEL_SET_ENTRY_RECORDS("iprof_model_set_entry_records", false, I, A, I, A, L, A, L),
    MODEL_MAP_RECORDS("iprof_model_map_records", false, I, A, I, A, A),
    MODEL_SCALE("iprof_model_scale", false, I, A, I, D, I),
    MODEL_UNKNOWN_COUNT("iprof_model_unknown_count", true, L, A),
    MODEL_UNKNOWN_AT("iprof_model_unknown_at", true, I, A, L, A, A, A, A),
    MODEL_ADD_UNKNOWN("iprof_model_add_unknown", false, I, A, A, L, A, L),
    MODEL_REMOVE_UNKNOWN("iprof_model_remove_unknown", false, I, A, A, L),
    MODEL_INSTANCEOF_KEY("iprof_model_instanceof_key", true, I, A),
    MODEL_SET_INSTANCEOF_KEY("iprof_model_set_instanceof_key", true, I, A, I),
    // <iprof/transform.h>
    /** 1.0's iprof_model_canonicalize(m, flags) under its 0.x name until phase C renames it. */
    MODEL_CANONICALIZE("iprof_model_canonicalize", false, I, A, I),
    FILTER_OPTIONS_INIT("iprof_filter_options_init", true, I, A, I),
    MODEL_FILTER("iprof_model_filter", false, I, A, A),
    PACKAGE_MATCHES("iprof_package_matches", true, I, A, A, L),
    MODEL_PRUNE("iprof_model_prune", false, I, A, I),
    // <iprof/diff.h>
    DIFF_OPTIONS_INIT("iprof_diff_options_init", true, I, A, I),
    DIFF_NEW("iprof_diff_new", false, I, A, A, A, A),
    DIFF_FREE("iprof_diff_free", false, null, A),
    DIFF_GET_SUMMARY("iprof_diff_get_summary", true, I, A, A),
    DIFF_GET_KIND("iprof_diff_get_kind", true, I, A, I, A),
    DIFF_GET_CHANGE("iprof_diff_get_change", true, I, A, I, L, A),
    DIFF_METHOD_ONLY_AT("iprof_diff_method_only_at", true, A, A, I, L),
    // <iprof/analysis.h>
    ENTRY_BRANCH_PROBABILITIES("iprof_entry_branch_probabilities", true, I, A, A, A, L, A),
    ENTRY_TYPE_SHARES("iprof_entry_type_shares", true, I, A, A, A, L, A, A),
    ENTRY_TOTAL("iprof_entry_total", true, L, A),
    MODEL_METHOD_TOTALS("iprof_model_method_totals", false, I, A, I, A, A, L, A),
    /** Not critical: the first call for a kind builds the columns, a pass over its entries. */
    MODEL_GET_COLUMNS("iprof_model_get_columns", false, I, A, I, A);

    /** The callbacks the C library calls: one upcall descriptor each. */
    enum Up {
        VERSION_CB(I, A, L, A),
        TYPE_CB(I, L, A, L, A),
        METHOD_CB(I, L, A, L, A, L, A),
        ENTRY_CB(I, I, A, L, A, L, A),
        UNKNOWN_CB(I, A, L, A, L, A),
        KEY_CB(I, A, L, I, A),
        READ_FN(I, A, L, A, A),
        WRITE_FN(I, A, L, A),
        /** iprof_model_type_pred, _method_pred and _entry_pred. */
        ELEMENT_PRED(I, A, A),
        FRAME_PRED(I, L, L, A),
        RECORDS_FN(I, A, A, L, A);

        final FunctionDescriptor descriptor;

        Up(MemoryLayout ret, MemoryLayout... params) {
            this.descriptor = FunctionDescriptor.of(ret, params);
        }
    }

    final String symbol;
    final boolean critical;
    final FunctionDescriptor descriptor;

    Fn(String symbol, boolean critical, MemoryLayout ret, MemoryLayout... params) {
        this.symbol = symbol;
        this.critical = critical;
        this.descriptor = ret == null ? FunctionDescriptor.ofVoid(params)
                                      : FunctionDescriptor.of(ret, params);
    }

    /** The layouts of the table, short so that each row fits a line. */
    static final class C {
        static final ValueLayout A = ValueLayout.ADDRESS;
        static final ValueLayout I = ValueLayout.JAVA_INT;
        static final ValueLayout L = ValueLayout.JAVA_LONG;
        static final ValueLayout D = ValueLayout.JAVA_DOUBLE;

        private C() {
        }
    }
}
