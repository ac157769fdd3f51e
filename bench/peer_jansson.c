/*
 * Peer: jansson (Debian libjansson-dev).
 *
 *   peer_jansson load FILE    json_load_file
 *   peer_jansson dump FILE    json_load_file + json_dumps (compact, in key
 *                             order), compared with FILE (not timed)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "bench_common.h"

int main(int argc, char **argv)
{
    if (argc != 3)
        bench_die("usage: peer_jansson load|dump FILE");
    const char *mode = argv[1], *path = argv[2];
    int64_t size = bench_file_size(path);
    if (size < 0)
        return 1;
    json_error_t err;
    if (!strcmp(mode, "load")) {
        double t0 = bench_now();
        json_t *root = json_load_file(path, 0, &err);
        double t1 = bench_now();
        if (!root)
            bench_die("%s:%d: %s", path, err.line, err.text);
        bench_result("jansson_load", t1 - t0, (uint64_t)size, NULL);
        json_decref(root);
    } else if (!strcmp(mode, "dump")) {
        double t0 = bench_now();
        json_t *root = json_load_file(path, 0, &err);
        if (!root)
            bench_die("%s:%d: %s", path, err.line, err.text);
        char *text = json_dumps(root, JSON_COMPACT | JSON_PRESERVE_ORDER);
        double t1 = bench_now();
        if (!text)
            bench_die("json_dumps failed");
        size_t len = strlen(text), flen;
        char *orig = bench_read_file(path, &flen);
        int same = orig && flen == len && memcmp(orig, text, len) == 0;
        free(orig);
        char extra[64];
        snprintf(extra, sizeof extra, "out_bytes=%zu identical=%s", len, same ? "yes" : "no");
        bench_result("jansson_roundtrip", t1 - t0, (uint64_t)size, extra);
        free(text);
        json_decref(root);
    } else {
        bench_die("usage: peer_jansson load|dump FILE");
    }
    return 0;
}
