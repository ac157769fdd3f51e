/*
 * JSON conformance with JSONTestSuite (../shared/jsontestsuite/test_parsing):
 * each file is embedded as the value of an unknown top-level key of a
 * minimal document. y_ files must load; n_ files must fail with a syntax
 * error whose offset lies in the embedded bytes (or just after them, when
 * the value is cut short); i_ files may go either way. Every file fed raw
 * must fail cleanly: none of them is an iprof document.
 *
 * "Just after them": a value cut short (an unclosed string or container)
 * swallows the document's own closing brace, so its error is the
 * unexpected end of input at the end of the whole document.
 */
#include "check.h"
#include "check_api.h"

#include <dirent.h>

#include <iprof/iprof.h>
#include <iprof/stream.h>

static const char prefix[] = "{\"version\":\"1.1.0\",\"types\":[],\"methods\":[],\"x\":";

static int count_y, count_n, count_i;

static void check_file(iprof_reader *r, const char *dir, const char *name)
{
    char path[4608];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    size_t len = 0;
    char *data = check_read_file(path, &len);
    CHECK(data != NULL);
    if (!data)
        return;
    size_t pl = sizeof prefix - 1;
    char *doc = malloc(pl + len + 1);
    memcpy(doc, prefix, pl);
    memcpy(doc + pl, data, len);
    doc[pl + len] = '}';
    int rc = iprof_reader_read(r, SRC_BUFFER(doc, pl + len + 1), NULL, NULL);
    const iprof_error *e = iprof_reader_error(r);
    if (name[0] == 'y') {
        count_y++;
        if (rc != IPROF_OK)
            fprintf(stderr, "%s: rejected: %s\n", name, err_info(e).message);
        CHECK_EQ_INT(rc, IPROF_OK);
    } else if (name[0] == 'n') {
        count_n++;
        uint64_t off = err_info(e).offset;
        int inside = off >= pl && off <= pl + len;
        if (off == pl + len + 1)
            inside = strcmp(err_info(e).message, "unexpected end of input") == 0;
        if (rc != IPROF_ESYNTAX || !inside)
            fprintf(stderr, "%s: rc %d offset %llu (embedded at %zu..%zu): %s\n", name, rc,
                    (unsigned long long)off, pl, pl + len, err_info(e).message);
        CHECK_EQ_INT(rc, IPROF_ESYNTAX);
        CHECK(inside);
    } else {
        count_i++;
        CHECK(rc == IPROF_OK || err_info(e).message[0] != '\0');
    }
    /* Raw: never an iprof document. */
    rc = iprof_reader_read(r, SRC_BUFFER(data, len), NULL, NULL);
    CHECK(rc < 0);
    CHECK(iprof_reader_error(r) != NULL);
    free(doc);
    free(data);
}

static void test_jsontestsuite(void)
{
    const char *src = getenv("IPROF_SOURCE_DIR");
    char dir[2048];
    snprintf(dir, sizeof dir, "%s/../shared/jsontestsuite/test_parsing", src ? src : ".");
    DIR *d = opendir(dir);
    if (!d)
        SKIP("../shared/jsontestsuite/test_parsing is absent");
    iprof_reader *r = NULL;
    CHECK_OK(iprof_reader_new(&r, NULL));
    struct dirent *de;
    while ((de = readdir(d)) != NULL)
        if (strstr(de->d_name, ".json"))
            check_file(r, dir, de->d_name);
    closedir(d);
    iprof_reader_free(r);
    fprintf(stderr, "y: %d, n: %d, i: %d files\n", count_y, count_n, count_i);
    CHECK_EQ_INT(count_y, 95);
    CHECK_EQ_INT(count_n, 188);
    CHECK_EQ_INT(count_i, 35);
}

int main(void)
{
    RUN(test_jsontestsuite);
    return check_done();
}
