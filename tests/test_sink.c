/* Writer sinks: the sink primitives (lib/write/sink.h) and the atomic path
 * writer: new files get 0666 & ~umask, replaced files keep their mode,
 * nothing is visible before end, and on any failure (the writer fails,
 * is freed early, the directory is unwritable or missing, a write fails
 * midway, the rename fails) the target is byte-identical and no temporary
 * file is left. Symlinks are followed to the file they name, which is
 * replaced (links stay links); devices, FIFOs and the process's own
 * descriptors (/dev/stdout) are written in place; directories and link
 * loops are refused. */
#ifdef _WIN32
/* Modes, owners, symbolic links, fork, FIFOs and file size limits: POSIX
 * notions throughout. Windows' replacement is tested by test_platform. */
#include <stdio.h>
int main(void)
{
    fprintf(stderr, "SKIP test_sink: POSIX only (modes, owners, symlinks, fork, FIFOs, "
                    "RLIMIT_FSIZE); Windows: test_platform\n");
    return 77;
}
#else
#include <iprof/iprof.h>
#include <iprof/stream.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "check_api.h"
#include "alloc.h"
#include "sink.h"

static char tmpdir[256];

static void make_tmpdir(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/iprof_test_sink_XXXXXX");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        exit(1);
    }
}

/* Remove everything in tmpdir (one level, plus one level of subdirs). */
static void clean_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    char p[512];
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        struct stat st;
        if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
            chmod(p, 0755);
            clean_dir(p);
            rmdir(p);
        } else {
            unlink(p);
        }
    }
    closedir(d);
}

/* Number of temporary files of dir: those named ".iprof-PID-N.tmp" there
 * and the unnamed ones (O_TMPFILE) this process has open in it, which
 * /proc shows as "DIR/#INODE (deleted)". */
static int count_tmp(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strncmp(e->d_name, ".iprof-", 7) == 0 && strstr(e->d_name, ".tmp"))
            n++;
    closedir(d);
    if (!(d = opendir("/proc/self/fd")))
        return n;
    char link[600], want[600];
    int wn = snprintf(want, sizeof want, "%s/#", dir);
    while ((e = readdir(d))) {
        char fdpath[300];
        snprintf(fdpath, sizeof fdpath, "/proc/self/fd/%s", e->d_name);
        ssize_t len = readlink(fdpath, link, sizeof link - 1);
        if (len > wn && strncmp(link, want, (size_t)wn) == 0)
            n++;
    }
    closedir(d);
    return n;
}

static void path_in(char *out, size_t size, const char *name)
{
    snprintf(out, size, "%s/%s", tmpdir, name);
}

static int put_file(const char *path, const char *text, mode_t mode)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0)
        return -1;
    size_t n = strlen(text);
    int ok = write(fd, text, n) == (ssize_t)n;
    close(fd);
    chmod(path, mode);
    return ok ? 0 : -1;
}

/* The file's bytes equal text. */
static int file_is(const char *path, const char *text)
{
    size_t len = 0;
    char *data = check_read_file(path, &len);
    if (!data)
        return 0;
    int same = len == strlen(text) && memcmp(data, text, len) == 0;
    free(data);
    return same;
}

static const char doc10[] =
    "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"int\"}],\"methods\":[],"
    "\"callCountProfiles\":[],\"conditionalProfiles\":[],\"virtualInvokeProfiles\":[],"
    "\"monitorProfiles\":[],\"samplingProfiles\":[]}";

static int write_doc10(iprof_writer *w)
{
    int rc = iprof_writer_begin(w, "1.0.0");
    if (!rc)
        rc = iprof_writer_type(w, 0, "int", 3);
    if (!rc)
        rc = iprof_writer_end(w);
    return rc;
}

/* A document of about n * 40 bytes. */
static int write_big(iprof_writer *w, int n)
{
    int rc = iprof_writer_begin(w, "1.0.0");
    for (int i = 0; !rc && i < n; i++)
        rc = iprof_writer_type(w, i, "java.lang.SomeLongishTypeName", 29);
    if (!rc)
        rc = iprof_writer_end(w);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* Sink primitives                                                          */

static int cb_count;
static int cb_fn(const void *data, size_t len, void *payload)
{
    (void)data;
    cb_count++;
    return len == 3 ? *(int *)payload : 0;
}

static void test_sink_primitives(void)
{
    iprof_allocator a;
    ipi_allocator_init(&a, NULL);
    ipi_errbuf eb;
    ipi_errbuf_clear(&eb);

    ipi_sink s;
    ipi_sink_init_mem(&s, &a);
    CHECK_OK(ipi_sink_open(&s, &eb));
    CHECK_OK(ipi_sink_write(&s, "abc", 3, &eb));
    CHECK_OK(ipi_sink_write(&s, "", 0, &eb));
    char big[10000];
    memset(big, 'x', sizeof big);
    CHECK_OK(ipi_sink_write(&s, big, sizeof big, &eb));
    CHECK_EQ_INT(s.mem_len, 10003);
    CHECK(s.mem_cap >= 10003);
    CHECK(memcmp(s.mem, "abcxxx", 6) == 0);
    CHECK_OK(ipi_sink_mem_reserve(&s, 100000));
    CHECK(s.mem_cap >= 100000);
    CHECK_EQ_INT(ipi_sink_mem_reserve(&s, SIZE_MAX), IPROF_ENOMEM);
    CHECK(s.mem_cap >= 100000 && memcmp(s.mem, "abcxxx", 6) == 0);
    CHECK_OK(ipi_sink_commit(&s, &eb));
    ipi_sink_close(&s);

    int ret = 0;
    ipi_sink_init_callback(&s, &a, cb_fn, &ret);
    CHECK_OK(ipi_sink_write(&s, "abcd", 4, &eb));
    CHECK_OK(ipi_sink_write(&s, "", 0, &eb)); /* empty writes do not call */
    CHECK_EQ_INT(cb_count, 1);
    ret = -3;
    CHECK_EQ_INT(ipi_sink_write(&s, "abc", 3, &eb), IPROF_EIO);
    CHECK(strstr(eb.message, "-3") != NULL);
    CHECK_EQ_INT(cb_count, 2);
    ipi_sink_close(&s);

    ipi_sink_init_fd(&s, &a, -1);
    CHECK_EQ_INT(ipi_sink_write(&s, "abc", 3, &eb), IPROF_EIO);
    CHECK(strstr(eb.message, "Bad file descriptor") != NULL);
    ipi_sink_close(&s);

    char buf[128];
    CHECK(strstr(ipi_strerror(ENOENT, buf, sizeof buf), "No such file") != NULL);
    CHECK(strlen(ipi_strerror(123456, buf, sizeof buf)) > 0);
    CHECK(strlen(ipi_strerror(ENOENT, buf, 4)) > 0);
    CHECK_EQ_STR(ipi_strerror(ENOENT, buf, 0), "unknown error");

    /* A path sink that is never opened leaves nothing behind. */
    char target[512];
    path_in(target, sizeof target, "never.iprof");
    CHECK_OK(ipi_sink_init_path(&s, &a, target, 1));
    ipi_sink_close(&s);
    CHECK(access(target, F_OK) != 0);
    CHECK_EQ_INT(count_tmp(tmpdir), 0);

    /* Open, write, commit. */
    CHECK_OK(ipi_sink_init_path(&s, &a, target, 0));
    CHECK_OK(ipi_sink_open(&s, &eb));
    CHECK_OK(ipi_sink_open(&s, &eb)); /* idempotent */
    CHECK_EQ_INT(count_tmp(tmpdir), 1);
    CHECK_OK(ipi_sink_write(&s, "hello", 5, &eb));
    CHECK(access(target, F_OK) != 0);
    CHECK_OK(ipi_sink_commit(&s, &eb));
    ipi_sink_close(&s);
    CHECK(file_is(target, "hello"));
    CHECK_EQ_INT(count_tmp(tmpdir), 0);
    clean_dir(tmpdir);
}

/* ------------------------------------------------------------------------ */
/* The atomic path writer                                                   */

static void test_path_new_file(void)
{
    char target[512];
    path_in(target, sizeof target, "new.iprof");
    static const mode_t masks[] = {022, 077, 0};
    for (size_t i = 0; i < 3; i++) {
        mode_t old = umask(masks[i]);
        iprof_writer *w = NULL;
        CHECK_OK(iprof_writer_new(&w, SINK_PATH(target), NULL));
        CHECK(access(target, F_OK) != 0);
        CHECK_OK(iprof_writer_begin(w, "1.0.0"));
        CHECK_OK(iprof_writer_type(w, 0, "int", 3));
        /* Nothing visible at the target before end; one temporary file. */
        CHECK(access(target, F_OK) != 0);
        CHECK_EQ_INT(count_tmp(tmpdir), 1);
        CHECK_OK(iprof_writer_end(w));
        CHECK(iprof_writer_error(w) == NULL);
        const void *d;
        size_t l;
        CHECK_EQ_INT(iprof_writer_buffer(w, &d, &l), IPROF_EINVAL);
        iprof_writer_free(w);
        umask(old);
        CHECK(file_is(target, doc10));
        CHECK_EQ_INT(count_tmp(tmpdir), 0);
        struct stat st;
        CHECK_OK(stat(target, &st));
        CHECK_EQ_INT(st.st_mode & 07777, 0666 & ~masks[i]);
        unlink(target);
    }

    /* NO_SYNC gives the same result. */
    iprof_write_options o = IPROF_WRITE_OPTIONS_INIT;
    o.flags = IPROF_WRITE_NO_SYNC;
    o.buffer_size = 16;
    iprof_writer *w = NULL;
    CHECK_OK(iprof_writer_new(&w, SINK_PATH(target), &o));
    CHECK_OK(write_doc10(w));
    iprof_writer_free(w);
    CHECK(file_is(target, doc10));

    /* A bare file name: the current directory. */
    char cwd[512];
    CHECK(getcwd(cwd, sizeof cwd) != NULL);
    CHECK_OK(chdir(tmpdir));
    CHECK_OK(iprof_writer_new(&w, SINK_PATH("bare.iprof"), NULL));
    CHECK_OK(write_doc10(w));
    iprof_writer_free(w);
    CHECK(file_is("bare.iprof", doc10));
    CHECK_EQ_INT(count_tmp("."), 0);
    CHECK_OK(chdir(cwd));
    clean_dir(tmpdir);
}

static void test_path_replace(void)
{
    char target[512];
    path_in(target, sizeof target, "old.iprof");
    static const mode_t modes[] = {0640, 0600, 0755, 0444};
    for (size_t i = 0; i < 4; i++) {
        CHECK_OK(put_file(target, "old contents", modes[i]));
        iprof_writer *w = NULL;
        CHECK_OK(iprof_writer_new(&w, SINK_PATH(target), NULL));
        CHECK_OK(iprof_writer_begin(w, "1.0.0"));
        CHECK_OK(iprof_writer_type(w, 0, "int", 3));
        CHECK(file_is(target, "old contents"));
        CHECK_OK(iprof_writer_end(w));
        iprof_writer_free(w);
        CHECK(file_is(target, doc10));
        struct stat st;
        CHECK_OK(stat(target, &st));
        CHECK_EQ_INT(st.st_mode & 07777, modes[i]);
        CHECK_EQ_INT(count_tmp(tmpdir), 0);
        unlink(target);
    }

    /* A taken temporary name is skipped, not clobbered. */
    CHECK_OK(put_file(target, "old", 0644));
    char taken[600];
    snprintf(taken, sizeof taken, "%s/.iprof-%ld-0.tmp", tmpdir, (long)getpid());
    CHECK_OK(put_file(taken, "someone else's", 0644));
    iprof_writer *w = NULL;
    CHECK_OK(iprof_writer_new(&w, SINK_PATH(target), NULL));
    CHECK_OK(write_doc10(w));
    iprof_writer_free(w);
    CHECK(file_is(target, doc10));
    CHECK(file_is(taken, "someone else's"));
    CHECK_EQ_INT(count_tmp(tmpdir), 1);
    clean_dir(tmpdir);
}

/* As root, a replaced file keeps its owner and group; a name as long as
 * a file system allows (255 bytes) can be replaced, the temporary file's
 * name being short whatever the target's. */
static void test_path_owner_and_long_name(void)
{
    char target[600], name[256];
    memset(name, 'n', 255);
    name[255] = '\0';
    path_in(target, sizeof target, name);
    CHECK_OK(put_file(target, "old", 0640));
    int root = geteuid() == 0;
    if (root)
        CHECK_OK(chown(target, 65534, 65534));
    iprof_writer *w = NULL;
    CHECK_OK(iprof_writer_new(&w, SINK_PATH(target), NULL));
    CHECK_OK(write_doc10(w));
    CHECK(iprof_writer_error(w) == NULL);
    iprof_writer_free(w);
    CHECK(file_is(target, doc10));
    struct stat st;
    CHECK_OK(stat(target, &st));
    CHECK_EQ_INT(st.st_mode & 07777, 0640);
    if (root)
        CHECK(st.st_uid == 65534 && st.st_gid == 65534);
    CHECK_EQ_INT(count_tmp(tmpdir), 0);
    clean_dir(tmpdir);
}

/* A read-only file of the user's is refused, as a plain open for writing
 * would refuse it, though its directory would let a rename replace it. */
static int read_only_checks(const char *dir, const char *target)
{
    int failed = 0;
    iprof_writer *w = NULL;
    failed |= iprof_writer_new(&w, SINK_PATH(target), NULL) != IPROF_OK;
    failed |= write_doc10(w) != IPROF_EIO;
    const iprof_error *e = iprof_writer_error(w);
    failed |= !e || strstr(err_info(e).message, "Permission denied") == NULL;
    iprof_writer_free(w);
    failed |= !file_is(target, "mine, read-only");
    failed |= count_tmp(dir) != 0;
    return failed;
}

static void test_path_read_only_file(void)
{
    char dir[512], target[600];
    snprintf(dir, sizeof dir, "%s/mine", tmpdir);
    snprintf(target, sizeof target, "%s/mine/t.iprof", tmpdir);
    CHECK_OK(mkdir(dir, 0755));
    CHECK_OK(put_file(target, "mine, read-only", 0444));
    int skipped = 0;
    if (geteuid() != 0) {
        CHECK(!read_only_checks(dir, target));
    } else {
        CHECK_OK(chown(dir, 65534, 65534));
        CHECK_OK(chown(target, 65534, 65534));
        chmod(tmpdir, 0755);
        fflush(stderr);
        pid_t pid = fork();
        if (pid == 0) {
            if (setgid(65534) != 0 || setuid(65534) != 0)
                _exit(77);
            _exit(read_only_checks(dir, target) ? 1 : 0);
        }
        int status = 0;
        CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
        skipped = WIFEXITED(status) && WEXITSTATUS(status) == 77;
        CHECK(WIFEXITED(status) && (skipped || WEXITSTATUS(status) == 0));
        chmod(tmpdir, 0700);
    }
    CHECK(file_is(target, "mine, read-only"));
    clean_dir(tmpdir);
    if (skipped)
        SKIP("cannot drop root privileges");
}

/* A process that dies while writing leaves no temporary file behind. */
static void test_path_killed_midway(void)
{
    char target[512];
    path_in(target, sizeof target, "killed.iprof");
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        iprof_writer *w = NULL;
        if (iprof_writer_new(&w, SINK_PATH(target), NULL) || iprof_writer_begin(w, "1.0.0") ||
            iprof_writer_type(w, 0, "int", 3))
            _exit(1);
        raise(SIGKILL);
        _exit(2);
    }
    int status = 0;
    CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    CHECK(access(target, F_OK) != 0);
    DIR *d = opendir(tmpdir);
    int entries = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        entries += e->d_name[0] != '.' || strncmp(e->d_name, ".iprof-", 7) == 0;
    if (d)
        closedir(d);
    CHECK_EQ_INT(entries, 0);
    clean_dir(tmpdir);
}

static void test_path_failures(void)
{
    char target[512];
    path_in(target, sizeof target, "keep.iprof");
    static const char old[] = "precious old profile";

    /* The writer fails midway: the target is untouched after free. */
    CHECK_OK(put_file(target, old, 0644));
    iprof_writer *w = NULL;
    iprof_write_options o = IPROF_WRITE_OPTIONS_INIT;
    o.buffer_size = 64;
    CHECK_OK(iprof_writer_new(&w, SINK_PATH(target), &o));
    CHECK_OK(iprof_writer_begin(w, "1.0.0"));
    for (int i = 0; i < 100; i++)
        CHECK_OK(iprof_writer_type(w, i, "some.Type", 9));
    CHECK_EQ_INT(iprof_writer_entry(w, IPROF_KIND_CALL_COUNT, (const int64_t[]){1, 5}, 1,
                                    (const int64_t[]){1}, 1),
                 IPROF_ESCHEMA);
    CHECK_EQ_INT(iprof_writer_end(w), IPROF_ESCHEMA);
    CHECK(file_is(target, old));
    CHECK_EQ_INT(count_tmp(tmpdir), 1);
    iprof_writer_free(w);
    CHECK(file_is(target, old));
    CHECK_EQ_INT(count_tmp(tmpdir), 0);

    /* Freed before end, no failure. */
    CHECK_OK(iprof_writer_new(&w, SINK_PATH(target), &o));
    CHECK_OK(iprof_writer_begin(w, "1.0.0"));
    for (int i = 0; i < 100; i++)
        CHECK_OK(iprof_writer_type(w, i, "some.Type", 9));
    iprof_writer_free(w);
    CHECK(file_is(target, old));
    CHECK_EQ_INT(count_tmp(tmpdir), 0);

    /* Freed before begin. */
    CHECK_OK(iprof_writer_new(&w, SINK_PATH(target), &o));
    iprof_writer_free(w);
    CHECK(file_is(target, old));
    CHECK_EQ_INT(count_tmp(tmpdir), 0);

    /* Missing parent directory: EIO naming the path, at begin. */
    char missing[600];
    snprintf(missing, sizeof missing, "%s/no/such/dir/x.iprof", tmpdir);
    CHECK_OK(iprof_writer_new(&w, SINK_PATH(missing), NULL));
    CHECK_EQ_INT(iprof_writer_begin(w, NULL), IPROF_EIO);
    const iprof_error *e = iprof_writer_error(w);
    CHECK_EQ_INT(err_info(e).status, IPROF_EIO);
    CHECK(strstr(err_info(e).message, "no/such/dir/x.iprof") != NULL);
    CHECK(strstr(err_info(e).message, "No such file or directory") != NULL);
    CHECK_EQ_INT(iprof_writer_type(w, 0, "x", 1), IPROF_EIO);
    CHECK_EQ_INT(iprof_writer_end(w), IPROF_EIO);
    iprof_writer_free(w);
    CHECK(access(missing, F_OK) != 0);

    /* The target is a directory: the rename fails at end; the directory
     * stays and the temporary file goes. */
    char dirtarget[600];
    snprintf(dirtarget, sizeof dirtarget, "%s/adir", tmpdir);
    CHECK_OK(mkdir(dirtarget, 0755));
    CHECK_OK(iprof_writer_new(&w, SINK_PATH(dirtarget), NULL));
    CHECK_EQ_INT(write_doc10(w), IPROF_EIO);
    CHECK(strstr(err_info(iprof_writer_error(w)).message, "adir") != NULL);
    CHECK_EQ_INT(count_tmp(tmpdir), 0);
    iprof_writer_free(w);
    struct stat st;
    CHECK(stat(dirtarget, &st) == 0 && S_ISDIR(st.st_mode));
    CHECK(file_is(target, old));
    clean_dir(tmpdir);
}

/* A write that fails midway (file size limit): EIO, target untouched. */
static void test_path_write_fails_midway(void)
{
    char target[512];
    path_in(target, sizeof target, "limited.iprof");
    static const char old[] = "old bytes";
    CHECK_OK(put_file(target, old, 0644));
    struct rlimit saved;
    if (getrlimit(RLIMIT_FSIZE, &saved) != 0)
        SKIP("no getrlimit");
    void (*prev)(int) = signal(SIGXFSZ, SIG_IGN);
    struct rlimit lim = saved;
    lim.rlim_cur = 4096;
    if (setrlimit(RLIMIT_FSIZE, &lim) != 0) {
        signal(SIGXFSZ, prev);
        SKIP("cannot lower RLIMIT_FSIZE");
    }
    iprof_write_options o = IPROF_WRITE_OPTIONS_INIT;
    o.buffer_size = 1000;
    iprof_writer *w = NULL;
    CHECK_OK(iprof_writer_new(&w, SINK_PATH(target), &o));
    int rc = write_big(w, 1000);
    setrlimit(RLIMIT_FSIZE, &saved);
    signal(SIGXFSZ, prev);
    CHECK_EQ_INT(rc, IPROF_EIO);
    const char *msg = err_info(iprof_writer_error(w)).message;
    CHECK(strstr(msg, "limited.iprof") != NULL);
    CHECK(strstr(msg, "too large") != NULL); /* EFBIG: "File too large" */
    iprof_writer_free(w);
    CHECK(file_is(target, old));
    CHECK_EQ_INT(count_tmp(tmpdir), 0);
    clean_dir(tmpdir);
}

/* An unwritable directory: EIO, target untouched. Root ignores
 * permissions, so as root the check runs in a child as nobody. */
static int unwritable_dir_checks(const char *target, const char *old)
{
    iprof_writer *w = NULL;
    int failures = check_failures;
    CHECK_OK(iprof_writer_new(&w, SINK_PATH(target), NULL));
    CHECK_EQ_INT(write_doc10(w), IPROF_EIO);
    const char *msg = err_info(iprof_writer_error(w)).message;
    CHECK(strstr(msg, target) != NULL);
    CHECK(strstr(msg, "Permission denied") != NULL);
    iprof_writer_free(w);
    CHECK(file_is(target, old));
    return check_failures - failures;
}

static void test_path_unwritable_dir(void)
{
    char dir[512], target[600];
    snprintf(dir, sizeof dir, "%s/ro", tmpdir);
    snprintf(target, sizeof target, "%s/ro/t.iprof", tmpdir);
    static const char old[] = "read-only dir";
    CHECK_OK(mkdir(dir, 0755));
    CHECK_OK(put_file(target, old, 0644));
    CHECK_OK(chmod(dir, 0555));
    chmod(tmpdir, 0755);
    if (geteuid() != 0) {
        unwritable_dir_checks(target, old);
    } else {
        fflush(stderr);
        pid_t pid = fork();
        if (pid == 0) {
            if (setgid(65534) != 0 || setuid(65534) != 0)
                _exit(77);
            _exit(unwritable_dir_checks(target, old) ? 1 : 0);
        }
        int status = 0;
        CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
        CHECK(WIFEXITED(status));
        if (WIFEXITED(status) && WEXITSTATUS(status) == 77) {
            chmod(dir, 0755);
            clean_dir(tmpdir);
            SKIP("cannot drop root privileges");
        }
        CHECK_EQ_INT(WEXITSTATUS(status), 0);
    }
    CHECK(file_is(target, old));
    CHECK_EQ_INT(count_tmp(dir), 0);
    chmod(dir, 0755);
    clean_dir(tmpdir);
}

/* ------------------------------------------------------------------------ */
/* Where a path leads: symlinks, devices, FIFOs, descriptors                */

/* Write doc10 to path; the status. */
static int write_to(const char *path)
{
    iprof_writer *w = NULL;
    CHECK_OK(iprof_writer_new(&w, SINK_PATH(path), NULL));
    int rc = write_doc10(w);
    iprof_writer_free(w);
    return rc;
}

static int is_link_to(const char *path, const char *want)
{
    char buf[512];
    ssize_t n = readlink(path, buf, sizeof buf - 1);
    if (n < 0)
        return 0;
    buf[n] = '\0';
    return strcmp(buf, want) == 0;
}

/* A chain of links, relative and absolute: the file at the end is
 * replaced (its mode kept), every link stays a link. */
static void test_path_symlinks(void)
{
    char real[512], l1[512], l2[512], sub[512], rel[512];
    path_in(real, sizeof real, "real.iprof");
    path_in(l1, sizeof l1, "l1");
    path_in(l2, sizeof l2, "l2");
    path_in(sub, sizeof sub, "sub");
    path_in(rel, sizeof rel, "sub/rel");
    CHECK_OK(put_file(real, "old", 0640));
    CHECK_OK(symlink("real.iprof", l1));
    CHECK_OK(symlink(l1, l2)); /* absolute */
    CHECK_OK(mkdir(sub, 0755));
    CHECK_OK(symlink("../l2", rel));
    CHECK_OK(write_to(rel));
    CHECK(file_is(real, doc10));
    struct stat st;
    CHECK(lstat(real, &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & 07777) == 0640);
    CHECK(is_link_to(l1, "real.iprof"));
    CHECK(is_link_to(l2, l1));
    CHECK(is_link_to(rel, "../l2"));
    CHECK_EQ_INT(count_tmp(tmpdir), 0);
    CHECK_EQ_INT(count_tmp(sub), 0);

    /* A dangling link: its target is created, the link kept. */
    char dangling[512], created[512];
    path_in(dangling, sizeof dangling, "dangling");
    path_in(created, sizeof created, "created.iprof");
    CHECK_OK(symlink("created.iprof", dangling));
    CHECK_OK(write_to(dangling));
    CHECK(file_is(created, doc10));
    CHECK(is_link_to(dangling, "created.iprof"));

    /* A loop, and a link to a directory: refused, nothing written. */
    char a[512], b[512];
    path_in(a, sizeof a, "loop_a");
    path_in(b, sizeof b, "loop_b");
    CHECK_OK(symlink("loop_b", a));
    CHECK_OK(symlink("loop_a", b));
    iprof_writer *w = NULL;
    CHECK_OK(iprof_writer_new(&w, SINK_PATH(a), NULL));
    CHECK_EQ_INT(write_doc10(w), IPROF_EIO);
    CHECK(strstr(err_info(iprof_writer_error(w)).message, "cannot follow the symbolic links") != NULL);
    iprof_writer_free(w);
    char dirlink[512];
    path_in(dirlink, sizeof dirlink, "dirlink");
    CHECK_OK(symlink("sub", dirlink));
    CHECK_OK(iprof_writer_new(&w, SINK_PATH(dirlink), NULL));
    CHECK_EQ_INT(write_doc10(w), IPROF_EIO);
    CHECK(strstr(err_info(iprof_writer_error(w)).message, "it is a directory, not a file") != NULL);
    iprof_writer_free(w);
    CHECK(is_link_to(dirlink, "sub"));
    CHECK_EQ_INT(count_tmp(tmpdir), 0);
    clean_dir(tmpdir);
}

/* A character device is written in place and stays a device. */
static void test_path_device(void)
{
    char link[512];
    path_in(link, sizeof link, "null");
    CHECK_OK(symlink("/dev/null", link));
    CHECK_OK(write_to("/dev/null"));
    CHECK_OK(write_to(link));
    struct stat st;
    CHECK(stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode));
    CHECK(is_link_to(link, "/dev/null"));
    clean_dir(tmpdir);
}

/* A FIFO: the reader gets the document; the FIFO stays. */
static void test_path_fifo(void)
{
    char fifo[512];
    path_in(fifo, sizeof fifo, "fifo");
    CHECK_OK(mkfifo(fifo, 0600));
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(fifo, O_RDONLY);
        char buf[4096];
        size_t len = 0;
        ssize_t n;
        while (fd >= 0 && (n = read(fd, buf + len, sizeof buf - len)) > 0)
            len += (size_t)n;
        _exit(len == strlen(doc10) && memcmp(buf, doc10, len) == 0 ? 0 : 1);
    }
    CHECK_OK(write_to(fifo));
    int status = 0;
    CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    struct stat st;
    CHECK(lstat(fifo, &st) == 0 && S_ISFIFO(st.st_mode));
    clean_dir(tmpdir);
}

/* /dev/stdout and /dev/fd/N write to the process's own descriptor, at its
 * offset (appending to what is there), and leave it open. */
static void test_path_descriptors(void)
{
    char out[512];
    path_in(out, sizeof out, "out.txt");
    CHECK_OK(put_file(out, "prefix;", 0644));
    int fd = open(out, O_WRONLY | O_APPEND);
    CHECK(fd >= 0);
    fflush(stdout);
    int saved = dup(1);
    CHECK(saved >= 0 && dup2(fd, 1) == 1);
    int rc1 = write_to("/dev/stdout");
    char fdpath[64];
    snprintf(fdpath, sizeof fdpath, "/dev/fd/%d", fd);
    int rc2 = write_to(fdpath);
    CHECK(dup2(saved, 1) == 1);
    close(saved);
    CHECK_OK(rc1);
    CHECK_OK(rc2);
    CHECK(fcntl(fd, F_GETFD) != -1); /* still open */
    close(fd);
    char want[1024];
    snprintf(want, sizeof want, "prefix;%s%s", doc10, doc10);
    CHECK(file_is(out, want));
    struct stat st;
    CHECK(lstat("/dev/stdout", &st) == 0 && S_ISLNK(st.st_mode));
    CHECK_EQ_INT(count_tmp(tmpdir), 0);
    clean_dir(tmpdir);
}

/* As an unprivileged user: a link into a directory the user cannot write
 * fails, and neither the link nor its target changes. */
static int unprivileged_link_checks(const char *link, const char *target)
{
    int failures = check_failures;
    CHECK_EQ_INT(write_to(link), IPROF_EIO);
    CHECK(file_is(target, "theirs"));
    CHECK(is_link_to(link, target));
    return check_failures - failures;
}

static void test_path_symlink_unprivileged(void)
{
    char dir[512], target[600], link[512];
    snprintf(dir, sizeof dir, "%s/ro", tmpdir);
    snprintf(target, sizeof target, "%s/ro/t.iprof", tmpdir);
    path_in(link, sizeof link, "link");
    CHECK_OK(mkdir(dir, 0755));
    CHECK_OK(put_file(target, "theirs", 0644));
    CHECK_OK(chmod(dir, 0555));
    CHECK_OK(symlink(target, link));
    chmod(tmpdir, 0777);
    int skipped = 0;
    if (geteuid() != 0) {
        unprivileged_link_checks(link, target);
    } else {
        fflush(stderr);
        pid_t pid = fork();
        if (pid == 0) {
            if (setgid(65534) != 0 || setuid(65534) != 0)
                _exit(77);
            _exit(unprivileged_link_checks(link, target) ? 1 : 0);
        }
        int status = 0;
        CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
        skipped = WIFEXITED(status) && WEXITSTATUS(status) == 77;
        CHECK(WIFEXITED(status) && (skipped || WEXITSTATUS(status) == 0));
    }
    CHECK(file_is(target, "theirs"));
    CHECK_EQ_INT(count_tmp(dir), 0);
    chmod(dir, 0755);
    chmod(tmpdir, 0700);
    clean_dir(tmpdir);
    if (skipped)
        SKIP("cannot drop root privileges");
}

int main(void)
{
    make_tmpdir();
    RUN(test_sink_primitives);
    RUN(test_path_new_file);
    RUN(test_path_replace);
    RUN(test_path_owner_and_long_name);
    RUN(test_path_killed_midway);
    RUN(test_path_read_only_file);
    RUN(test_path_failures);
    RUN(test_path_write_fails_midway);
    RUN(test_path_unwritable_dir);
    RUN(test_path_symlinks);
    RUN(test_path_device);
    RUN(test_path_fifo);
    RUN(test_path_descriptors);
    RUN(test_path_symlink_unprivileged);
    clean_dir(tmpdir);
    rmdir(tmpdir);
    return check_done();
}
#endif /* _WIN32 */
