/* The platform layer (lib/platform/) through the library, on every system
 * the suite runs on (Linux, musl, Windows under wine64): a path's file
 * replaced with no temporary file left, a directory refused, a read-only
 * file refused, UTF-8 paths reaching the system as the same name (on
 * Windows as UTF-16, not through a code page), descriptors written and
 * read in binary mode (no CRLF), and the path rules of replace.h (a
 * target too long refused before anything is created), and pages mapped
 * ahead (ipi_mem_populate: resident on Linux, contents and errno kept). */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE /* mincore */
#endif
#include <iprof/iprof.h>
#include <iprof/stream.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/mman.h>
#include <sys/utsname.h>
#endif

#include "check.h"
#include "check_api.h"
#include "platform.h"
#include "replace.h"

#ifdef _WIN32
#include <wchar.h>
#endif

static char tmpdir[64];

/* A document naming one type: the library's own bytes, from memory. */
static int write_doc(iprof_writer *w, const char *name)
{
    int rc = iprof_writer_begin(w, "1.0.0");
    if (!rc)
        rc = iprof_writer_type(w, 0, name, strlen(name));
    if (!rc)
        rc = iprof_writer_end(w);
    return rc;
}

static char *doc_bytes(const char *name, size_t *len)
{
    iprof_writer *w = NULL;
    const void *data = NULL;
    char *out = NULL;
    if (iprof_writer_new(&w, SINK_BUFFER, NULL) == 0 && write_doc(w, name) == 0 &&
        iprof_writer_buffer(w, &data, len) == 0 && (out = malloc(*len)) != NULL)
        memcpy(out, data, *len);
    iprof_writer_free(w);
    return out;
}

/* Whether path holds exactly the document naming name. */
static int file_holds(const char *path, const char *name)
{
    size_t want_len = 0, got_len = 0;
    char *want = doc_bytes(name, &want_len);
    char *got = check_read_file(path, &got_len);
    int same = want && got && want_len == got_len && memcmp(want, got, got_len) == 0;
    free(want);
    free(got);
    return same;
}

static int write_path(const char *path, const char *name, char *err, size_t errsize)
{
    iprof_writer *w = NULL;
    int rc = iprof_writer_new(&w, SINK_PATH(path), NULL);
    if (!rc)
        rc = write_doc(w, name);
    if (rc && err)
        snprintf(err, errsize, "%s", err_info(iprof_writer_error(w)).message);
    iprof_writer_free(w);
    return rc;
}

static int count_tmp(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)))
        n += strncmp(e->d_name, ".iprof-", 7) == 0;
    if (d)
        closedir(d);
    return n;
}

static void test_replace(void)
{
    char path[128];
    snprintf(path, sizeof path, "%s/out.iprof", tmpdir);
    CHECK_OK(write_path(path, "First", NULL, 0));
    CHECK(file_holds(path, "First"));
    /* Replaced whole, not written over: the shorter document leaves no tail. */
    CHECK_OK(write_path(path, "B", NULL, 0));
    CHECK(file_holds(path, "B"));
    CHECK_EQ_INT(count_tmp(tmpdir), 0);
    CHECK_OK(unlink(path));
}

static void test_directory_refused(void)
{
    char err[256] = "", want[256];
    CHECK_EQ_INT(write_path(tmpdir, "A", err, sizeof err), IPROF_EIO);
    snprintf(want, sizeof want, "cannot write \"%s\": it is a directory, not a file", tmpdir);
    CHECK_EQ_STR(err, want);
    CHECK_EQ_INT(count_tmp(tmpdir), 0);
}

static void test_read_only_refused(void)
{
#ifndef _WIN32
    if (geteuid() == 0)
        SKIP("root may write a read-only file");
#endif
    char path[128], err[256] = "";
    snprintf(path, sizeof path, "%s/ro.iprof", tmpdir);
    CHECK_OK(write_path(path, "Kept", NULL, 0));
    CHECK_OK(chmod(path, S_IRUSR));
    CHECK_EQ_INT(write_path(path, "New", err, sizeof err), IPROF_EIO);
    CHECK(strncmp(err, "cannot write \"", 14) == 0);
    CHECK(file_holds(path, "Kept"));
    CHECK_EQ_INT(count_tmp(tmpdir), 0);
    CHECK_OK(chmod(path, S_IRUSR | S_IWUSR));
    CHECK_OK(unlink(path));
}

/* "é" and a CJK character in UTF-8: the name the system shows is the
 * same characters (on Windows: the UTF-16 name, which a code page
 * conversion of the UTF-8 bytes would not give). */
static void test_utf8_path(void)
{
    char path[128];
    snprintf(path, sizeof path, "%s/caf\xc3\xa9-\xe7\x8c\xab.iprof", tmpdir);
    CHECK_OK(write_path(path, "Utf8", NULL, 0));
#ifdef _WIN32
    wchar_t wide[128];
    swprintf(wide, 128, L"%hs/caf\u00e9-\u732b.iprof", tmpdir);
    FILE *f = _wfopen(wide, L"rb");
#else
    FILE *f = fopen(path, "rb");
#endif
    CHECK(f != NULL);
    if (f)
        fclose(f);
    iprof_reader *r = NULL;
    iprof_model *m = NULL;
    CHECK_OK(iprof_reader_new(&r, NULL));
    CHECK_OK(iprof_model_load(&m, r, SRC_PATH(path)));
    CHECK_EQ_INT(iprof_model_type_count(m), 1);
    iprof_model_free(m);
    iprof_reader_free(r);
#ifdef _WIN32
    CHECK_OK(_wunlink(wide));
#else
    CHECK_OK(unlink(path));
#endif
}

/* Bytes that are not UTF-8 name no file on Windows; elsewhere a name is
 * bytes. */
static void test_invalid_utf8_path(void)
{
#ifndef _WIN32
    SKIP("Windows only: POSIX names are bytes");
#else
    char path[128], err[256] = "";
    snprintf(path, sizeof path, "%s/bad-\xff.iprof", tmpdir);
    CHECK_EQ_INT(write_path(path, "A", err, sizeof err), IPROF_EIO);
    CHECK(strstr(err, "cannot create a temporary file next to") == NULL);
    CHECK(strstr(err, strerror(EILSEQ)) != NULL);
    iprof_reader *r = NULL;
    CHECK_OK(iprof_reader_new(&r, NULL));
    CHECK_EQ_INT(iprof_reader_read(r, SRC_PATH(path), NULL, NULL), IPROF_EIO);
    CHECK(strstr(err_info(iprof_reader_error(r)).message, strerror(EILSEQ)) != NULL);
    iprof_reader_free(r);
#endif
}

/* A descriptor the caller opened in text mode (Windows' default) is
 * written and read as binary: no CR before LF, no ^Z as the end. */
static void test_descriptor_binary(void)
{
    char path[128];
    snprintf(path, sizeof path, "%s/fd.iprof", tmpdir);
#ifdef _WIN32
    int fd = _open(path, _O_WRONLY | _O_CREAT | _O_TRUNC | _O_TEXT, _S_IREAD | _S_IWRITE);
#else
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
#endif
    CHECK(fd >= 0);
    if (fd < 0)
        return;
    iprof_write_options o;
    CHECK_OK(iprof_write_options_init(&o, IPROF_WRITE_OPTIONS_VERSION));
    o.flags |= IPROF_WRITE_PRETTY; /* newlines to translate, if anything did */
    iprof_writer *w = NULL;
    CHECK_OK(iprof_writer_new(&w, SINK_FD(fd), &o));
    CHECK_OK(write_doc(w, "Fd"));
    iprof_writer_free(w);
    CHECK_OK(close(fd));
    size_t len = 0;
    char *got = check_read_file(path, &len);
    CHECK(got && len > 0 && memchr(got, '\n', len) != NULL && memchr(got, '\r', len) == NULL);
    free(got);
#ifdef _WIN32
    fd = _open(path, _O_RDONLY | _O_TEXT);
#else
    fd = open(path, O_RDONLY);
#endif
    iprof_reader *r = NULL;
    iprof_model *m = NULL;
    CHECK_OK(iprof_reader_new(&r, NULL));
    CHECK_OK(iprof_model_load(&m, r, SRC_FD(fd)));
    CHECK_EQ_INT(iprof_model_type_count(m), 1);
    iprof_model_free(m);
    iprof_reader_free(r);
    CHECK_OK(close(fd));
    CHECK_OK(unlink(path));
}

static void check_dir_of(const char *path, const char *want)
{
    char dir[64];
    ipi_replace_dir_of(dir, path);
    CHECK_EQ_STR(dir, want);
}

static void test_path_rules(void)
{
    check_dir_of("x.iprof", ".");
    check_dir_of("/x.iprof", "/");
    check_dir_of("a/b//x.iprof", "a/b");
    CHECK(ipi_path_is_absolute("/a"));
    CHECK(!ipi_path_is_absolute("a/b"));
#ifdef _WIN32
    check_dir_of("C:\\x.iprof", "C:\\");
    check_dir_of("C:/d\\x.iprof", "C:/d");
    check_dir_of("C:x.iprof", "C:");
    CHECK(ipi_path_is_absolute("C:\\a"));
    CHECK(ipi_path_is_absolute("\\\\srv\\share\\a"));
    CHECK(!ipi_path_is_absolute("C:a"));
    CHECK_EQ_INT(ipi_path_descriptor("/dev/stdout"), -1);
#else
    CHECK(!ipi_path_is_absolute("C:\\a"));
    CHECK_EQ_INT(ipi_path_descriptor("/dev/stdout"), 1);
    CHECK_EQ_INT(ipi_path_descriptor("/dev/fd/7"), 7);
#endif
}

/* A target too long for a name beside it: refused before anything is
 * created, the same on every system (replace.c). */
static void test_replace_too_long(void)
{
    static char target[IPI_REPLACE_PATH_MAX + 1];
    memset(target, 'a', IPI_REPLACE_PATH_MAX);
    ipi_replace r;
    r.fd = 5; /* stale values: the open starts afresh */
    r.done = 1;
    const char *what = NULL;
    CHECK_EQ_INT(ipi_replace_open(&r, target, &what), ENAMETOOLONG);
    CHECK_EQ_STR(what, "cannot write");
    CHECK_EQ_INT(r.fd, -1);
    CHECK_EQ_INT(r.done, 0);
    CHECK_EQ_STR(r.tmp, "");
    ipi_replace_abort(&r); /* nothing to give up: idempotent */
    CHECK_EQ_INT(r.fd, -1);
}

#if defined(__linux__)
/* How many of the n pages at p are resident. */
static size_t resident(void *p, size_t n)
{
    unsigned char v[64];
    size_t count = 0;
    if (n > sizeof v || mincore(p, n * 4096, v) != 0)
        return SIZE_MAX;
    for (size_t i = 0; i < n; i++)
        count += v[i] & 1;
    return count;
}
#endif

/* ipi_mem_populate maps whole pages inside the range and no page outside
 * it, leaves a range below IPI_POPULATE_MIN alone, keeps what memory
 * holds and errno; elsewhere than Linux it is a hint that does nothing. */
static void test_populate(void)
{
    static char buf[100000];
    for (size_t i = 0; i < sizeof buf; i++)
        buf[i] = (char)(i * 7);
    errno = ERANGE;
    ipi_mem_populate(buf + 3, sizeof buf - 5);
    ipi_mem_populate(buf, 0);
    ipi_mem_populate(NULL, 0);
    CHECK_EQ_INT(errno, ERANGE);
    size_t same = 0;
    for (size_t i = 0; i < sizeof buf; i++)
        same += buf[i] == (char)(i * 7);
    CHECK_EQ_INT(same, sizeof buf);
#if defined(__linux__)
    if (sysconf(_SC_PAGESIZE) != 4096)
        return;
    char *p = mmap(NULL, 48 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(p != MAP_FAILED);
    if (p == MAP_FAILED)
        return;
    CHECK_EQ_INT(resident(p, 48), 0);
    ipi_mem_populate(p + 4096, 3 * 4096); /* below the minimum: nothing */
    CHECK_EQ_INT(resident(p, 48), 0);
    /* From inside page 8 to inside page 20: pages 9 to 19, whole. */
    ipi_mem_populate(p + 8 * 4096 + 100, 12 * 4096);
    struct utsname u;
    int major = 0, minor = 0;
    if (uname(&u) == 0)
        sscanf(u.release, "%d.%d", &major, &minor);
    if (major < 5 || (major == 5 && minor < 14)) { /* the advice is refused: nothing mapped */
        fprintf(stderr, "   Linux %d.%d: MADV_POPULATE_WRITE came in 5.14\n", major, minor);
        CHECK_EQ_INT(resident(p, 48), 0);
    } else {
        CHECK_EQ_INT(resident(p, 48), 11);
        CHECK_EQ_INT(resident(p + 8 * 4096, 1), 0);
        CHECK_EQ_INT(resident(p + 20 * 4096, 1), 0);
        CHECK_EQ_INT(p[9 * 4096], 0); /* anonymous memory stays zero */
    }
    munmap(p, 48 * 4096);
#endif
}

int main(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/iprof_test_platform_XXXXXX");
    if (!check_mkdtemp(tmpdir)) {
        fprintf(stderr, "cannot create %s\n", tmpdir);
        return 1;
    }
    RUN(test_replace);
    RUN(test_directory_refused);
    RUN(test_read_only_refused);
    RUN(test_utf8_path);
    RUN(test_invalid_utf8_path);
    RUN(test_descriptor_binary);
    RUN(test_path_rules);
    RUN(test_replace_too_long);
    RUN(test_populate);
    rmdir(tmpdir);
    return check_done();
}
