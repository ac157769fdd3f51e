/*
 * Peer: yyjson, built from ../shared/peers/yyjson when that folder is
 * present (bench/meson.build; never copied into the project), run as its
 * README says is fair: yyjson_read_file with default flags, then a walk of
 * every value (integers summed, string lengths added), and for a round trip
 * yyjson_write_file of the same document (minified).
 *
 *   peer_yyjson load FILE            read + walk (timed)
 *   peer_yyjson roundtrip FILE OUT   read + walk + write OUT (timed), then
 *                                    check OUT equals FILE (not timed)
 *
 * The walk keeps its own stack of iterators (no recursion on depth). CPU
 * time (user + system) is measured over the same span as the wall time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"
#include "yyjson.h"

typedef struct walk_sum {
    uint64_t values, ints, str_bytes;
} walk_sum;

/* One open container: an array or an object iterator. */
typedef struct frame {
    int is_obj;
    yyjson_arr_iter arr;
    yyjson_obj_iter obj;
} frame;

static void visit(yyjson_val *v, walk_sum *s, frame **stack, size_t *depth, size_t *cap)
{
    s->values++;
    switch (yyjson_get_type(v)) {
    case YYJSON_TYPE_NUM:
        s->ints += (uint64_t)yyjson_get_sint(v);
        break;
    case YYJSON_TYPE_STR:
        s->str_bytes += yyjson_get_len(v);
        break;
    case YYJSON_TYPE_ARR:
    case YYJSON_TYPE_OBJ:
        if (*depth == *cap) {
            *cap = *cap ? *cap * 2 : 64;
            *stack = realloc(*stack, *cap * sizeof **stack);
            if (!*stack)
                bench_die("out of memory");
        }
        frame *f = &(*stack)[(*depth)++];
        f->is_obj = yyjson_get_type(v) == YYJSON_TYPE_OBJ;
        if (f->is_obj)
            yyjson_obj_iter_init(v, &f->obj);
        else
            yyjson_arr_iter_init(v, &f->arr);
        break;
    default:
        break;
    }
}

static walk_sum walk(yyjson_val *root)
{
    walk_sum s = {0, 0, 0};
    frame *stack = NULL;
    size_t depth = 0, cap = 0;
    visit(root, &s, &stack, &depth, &cap);
    while (depth) {
        frame *f = &stack[depth - 1];
        yyjson_val *v;
        if (f->is_obj) {
            yyjson_val *key = yyjson_obj_iter_next(&f->obj);
            if (!key) {
                depth--;
                continue;
            }
            s.str_bytes += yyjson_get_len(key);
            v = yyjson_obj_iter_get_val(key);
        } else if (!(v = yyjson_arr_iter_next(&f->arr))) {
            depth--;
            continue;
        }
        visit(v, &s, &stack, &depth, &cap);
    }
    free(stack);
    return s;
}

static yyjson_doc *read_doc(const char *path)
{
    yyjson_read_err err;
    yyjson_doc *doc = yyjson_read_file(path, YYJSON_READ_NOFLAG, NULL, &err);
    if (!doc)
        bench_die("%s: %s at byte %zu", path, err.msg, err.pos);
    return doc;
}

/* Compare two files; 1 when equal. */
static int same_files(const char *a, const char *b)
{
    size_t na, nb;
    char *da = bench_read_file(a, &na), *db = bench_read_file(b, &nb);
    int same = da && db && na == nb && memcmp(da, db, na) == 0;
    free(da);
    free(db);
    return same;
}

int main(int argc, char **argv)
{
    if (argc < 3)
        bench_die("usage: peer_yyjson load FILE | roundtrip FILE OUT");
    const char *mode = argv[1], *path = argv[2];
    int64_t size = bench_file_size(path);
    if (size < 0)
        return 1;
    char extra[200];
    if (!strcmp(mode, "load") && argc == 3) {
        double t0 = bench_now(), c0 = bench_cpu();
        yyjson_doc *doc = read_doc(path);
        walk_sum s = walk(yyjson_doc_get_root(doc));
        double t1 = bench_now(), c1 = bench_cpu();
        snprintf(extra, sizeof extra, "cpu_s=%.6f values=%llu ints=%llu str_bytes=%llu", c1 - c0,
                 (unsigned long long)s.values, (unsigned long long)s.ints,
                 (unsigned long long)s.str_bytes);
        bench_result("yyjson_load", t1 - t0, (uint64_t)size, extra);
        yyjson_doc_free(doc);
    } else if (!strcmp(mode, "roundtrip") && argc == 4) {
        const char *out = argv[3];
        double t0 = bench_now(), c0 = bench_cpu();
        yyjson_doc *doc = read_doc(path);
        walk_sum s = walk(yyjson_doc_get_root(doc));
        yyjson_write_err werr;
        if (!yyjson_write_file(out, doc, YYJSON_WRITE_NOFLAG, NULL, &werr))
            bench_die("%s: %s", out, werr.msg);
        double t1 = bench_now(), c1 = bench_cpu();
        int same = same_files(path, out);
        snprintf(extra, sizeof extra, "cpu_s=%.6f values=%llu identical=%s", c1 - c0,
                 (unsigned long long)s.values, same ? "yes" : "no");
        bench_result("yyjson_roundtrip", t1 - t0, (uint64_t)size, extra);
        yyjson_doc_free(doc);
        remove(out);
        if (!same)
            return 3;
    } else {
        bench_die("usage: peer_yyjson load FILE | roundtrip FILE OUT");
    }
    return 0;
}
