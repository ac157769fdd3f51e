/*
 * Where a loaded model's memory goes: loads FILE and prints the bytes of
 * each part of the model, from its internal layout (linked against the
 * static library), next to the process's peak RSS. The "model
 * peak RSS <= 0.5 x file" target is judged on this breakdown in
 * docs/performance.md.
 *
 *   bench_memory FILE
 */
#include <stdio.h>

#include "bench_common.h"
#include "model.h"

typedef struct part {
    const char *what;
    double bytes;
} part;

/* The id index of types or methods: nothing while their ids are in order,
 * else a map of 4-byte positions. */
static double idmap_bytes(const ipi_idpos *x)
{
    return (double)ipi_idpos_bytes(x);
}

int main(int argc, char **argv)
{
    if (argc != 2)
        bench_die("usage: bench_memory FILE");
    int64_t size = bench_file_size(argv[1]);
    if (size < 0)
        return 1;
    iprof_reader *reader = bench_reader_new();
    iprof_model *m;
    iprof_source src = IPROF_SOURCE_PATH_INIT(argv[1]);
    if (iprof_model_load(&m, reader, &src) != IPROF_OK)
        bench_die("%s: load failed", argv[1]);

    /* Walk the model once for the arena's share of each part: every size
     * is rounded up to 8 bytes as ipi_arena_alloc does. */
#define ARENA(n) ((double)(((n) + 7u) & ~(size_t)7u))
    double type_structs = 0, method_structs = 0, sig_ids = 0, records = 0, names = 0;
    for (size_t i = 0; i < m->type_count; i++)
        type_structs += ARENA(sizeof(iprof_type));
    size_t sig_total = 0;
    for (size_t i = 0; i < m->method_count; i++) {
        method_structs += ARENA(sizeof(iprof_method));
        sig_ids += (double)ipi_model_method(m, i)->sig_len * sizeof(int64_t);
        sig_total += ipi_model_method(m, i)->sig_len;
    }
    size_t distinct = 0;
    uint32_t ref;
    ipi_intern_each(&m->names, ref) /* the names' own chunks, 8-byte aligned too */
    {
        names += ARENA(sizeof(ipi_str) + ipi_intern_at(&m->names, ref)->len + 1);
        distinct++;
    }
    double entry_lists = 0;
    size_t entries = 0;
    for (int k = 0; k < IPROF_KIND_COUNT; k++) {
        const ipi_entry_list *l = &m->entries[k];
        entry_lists += (double)l->cap * sizeof(iprof_entry);
        for (size_t i = 0; i < l->count; i++)
            records += ARENA(l->items[i].record_count * sizeof(int64_t));
        entries += l->count;
    }
    double arena_used = type_structs + records;
    /* Context nodes: the slots handed out (a wide bci takes two); the
     * rest of the last chunk is obtained, not yet used. */
    double nodes = (double)m->ctx_nodes.used * sizeof(iprof_context);
    double node_chunks = (double)m->ctx_nodes.chunk_count * IPI_CTX_CHUNK * sizeof(iprof_context);

    part parts[] = {
        {"methods: structs (24 B: id, name, length)", method_structs},
        {"methods: signature ids (int64)", sig_ids},
        {"methods: reference list (4 B)", (double)m->method_cap * sizeof *m->methods},
        {"methods: id index", idmap_bytes(&m->method_ids)},
        {"types: structs, pointer list, id index",
         type_structs + (double)m->type_cap * sizeof(void *) + idmap_bytes(&m->type_ids)},
        {"names: interned strings (8 B header + text)", names},
        {"names: intern table (8 B slots)", (double)m->names.tab.cap * sizeof(ipi_rtab_slot)},
        {"contexts: nodes (24 B)", nodes},
        {"contexts: intern table (8 B slots)", (double)m->contexts.cap * sizeof(ipi_rtab_slot)},
        {"entries: lists (24 B each)", entry_lists},
        {"entries: records (int64)", records},
        {"arena, node, name and method chunks: obtained, not yet used",
         (double)m->arena.total - arena_used + node_chunks - nodes +
             (double)m->names.pool.bytes - names + (double)m->method_pool.bytes - method_structs -
             sig_ids},
    };
    double total = 0;
    printf("%-48s %10s %7s\n", "part", "MiB", "x file");
    for (size_t i = 0; i < sizeof parts / sizeof *parts; i++) {
        printf("%-48s %10.1f %7.3f\n", parts[i].what, parts[i].bytes / 1048576,
               parts[i].bytes / (double)size);
        total += parts[i].bytes;
    }
    printf("%-48s %10.1f %7.3f\n", "total", total / 1048576, total / (double)size);
    printf("peak RSS %.1f MiB (%.3f x file); %zu types, %zu methods (%.2f signature ids "
           "each), %zu distinct names, %zu context nodes, %zu entries\n",
           (double)bench_peak_rss_kb() / 1024, (double)bench_peak_rss_kb() * 1024 / (double)size,
           m->type_count, m->method_count,
           m->method_count ? (double)sig_total / (double)m->method_count : 0.0, distinct,
           m->contexts.count, entries);
    iprof_model_free(m);
    iprof_reader_free(reader);
    return 0;
}
