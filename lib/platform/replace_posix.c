/* Replacing a file atomically (replace.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* O_TMPFILE, linkat */
#endif
#include "replace.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif
#ifndef O_DIRECTORY
#define O_DIRECTORY 0
#endif

void ipi_replace_dir_of(char *dir, const char *path)
{
    const char *slash = strrchr(path, '/');
    size_t n;
    if (!slash) {
        path = ".";
        n = 1;
    } else {
        while (slash > path && slash[-1] == '/')
            slash--;
        n = slash == path ? 1 : (size_t)(slash - path);
    }
    memcpy(dir, path, n);
    dir[n] = '\0';
}

/* A free name for the temporary file in dir: r->tmp. 0 or an errno value. */
static int name_into(ipi_replace *r, const char *dir, unsigned n)
{
    int len = snprintf(r->tmp, sizeof r->tmp, "%s/.iprof-%ld-%u.tmp", dir, (long)getpid(), n);
    return len < 0 || (size_t)len >= sizeof r->tmp ? ENAMETOOLONG : 0;
}

static int link_anonymous(ipi_replace *r, const char *dir);

/* Without a name: nothing to remove if the process dies. It is linked in
 * at the commit through /proc, which some sandboxes refuse: a throwaway
 * file tries that first (a file once linked cannot be linked again once
 * unlinked). 0 when not possible here. */
static int open_anonymous(ipi_replace *r, const char *dir, int mode)
{
#ifdef O_TMPFILE
    if (access("/proc/self/fd", X_OK) != 0)
        return 0;
    r->fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
    int linkable = r->fd >= 0 && link_anonymous(r, dir) == 0;
    if (linkable)
        unlink(r->tmp);
    r->tmp[0] = '\0';
    if (r->fd >= 0)
        close(r->fd);
    r->fd = linkable ? open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, mode) : -1;
    r->anon = r->fd >= 0;
#else
    (void)dir, (void)mode;
#endif
    return r->anon;
}

int ipi_replace_open(ipi_replace *r, const char *target, const char **what)
{
    int err = ipi_replace_begin(r, target, what);
    if (err)
        return err;
    char dir[IPI_REPLACE_PATH_MAX];
    struct stat st;
    int exists = stat(target, &st) == 0;
    /* Renaming needs only the directory's permission: refuse what a plain
     * open for writing would (a read-only file of the user's). */
    if (exists && access(target, W_OK) != 0)
        return ipi_replace_fail(r, what, "cannot write", errno);
    ipi_replace_dir_of(dir, target);
    /* A replaced file's content may be private: owner-only until its mode
     * is set. A new one gets 0666 less the umask, from the kernel. */
    int mode = exists ? 0600 : 0666;
    if (!open_anonymous(r, dir, mode)) {
        for (unsigned n = 0; r->fd < 0; n++) {
            int e = name_into(r, dir, n);
            if (e)
                return ipi_replace_fail(r, what, "cannot create a temporary file next to", e);
            r->fd = open(r->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
            if (r->fd < 0 && (errno != EEXIST || n >= 10000)) {
                e = errno;
                r->tmp[0] = '\0';
                return ipi_replace_fail(r, what, "cannot create a temporary file next to", e);
            }
        }
    }
    if (exists) {
        /* Owner and group where permitted (root; a group of the user's),
         * before the mode: a change of owner clears set-id bits. */
        if (fchown(r->fd, st.st_uid, st.st_gid) != 0)
            (void)!fchown(r->fd, (uid_t)-1, st.st_gid);
        if (fchmod(r->fd, st.st_mode & 07777) != 0)
            return ipi_replace_fail(r, what, "cannot set the mode of the temporary file for",
                                    errno);
    }
    return 0;
}

/* Give the anonymous file a name beside the target. 0 or an errno value. */
static int link_anonymous(ipi_replace *r, const char *dir)
{
    char proc[64];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", r->fd);
    for (unsigned n = 0;; n++) {
        int e = name_into(r, dir, n);
        if (e)
            return e;
        if (linkat(AT_FDCWD, proc, AT_FDCWD, r->tmp, AT_SYMLINK_FOLLOW) == 0)
            return 0;
        e = errno;
        r->tmp[0] = '\0';
        if (e != EEXIST || n >= 10000)
            return e;
    }
}

static int sync_dir(const char *dir)
{
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0)
        return 0;
    int e = fsync(dfd) != 0 ? errno : 0;
    close(dfd);
    /* File systems that cannot sync a directory are not an error. */
    if (e == EINVAL || e == EROFS || e == EBADF
#ifdef ENOTSUP
        || e == ENOTSUP
#endif
    )
        e = 0;
    return e;
}

int ipi_replace_commit(ipi_replace *r, const char *target, int sync, const char **what)
{
    char dir[IPI_REPLACE_PATH_MAX];
    ipi_replace_dir_of(dir, target);
    if (sync && fsync(r->fd) != 0)
        return ipi_replace_fail(r, what, "cannot sync", errno);
    if (r->anon) {
        int e = link_anonymous(r, dir);
        if (e)
            return ipi_replace_fail(r, what, "cannot give the temporary file a name next to", e);
        r->anon = 0;
    }
    int fd = r->fd;
    r->fd = -1;
    if (close(fd) != 0)
        return ipi_replace_fail(r, what, "cannot close", errno);
    if (rename(r->tmp, target) != 0)
        return ipi_replace_fail(r, what, "cannot rename the temporary file to", errno);
    r->tmp[0] = '\0';
    r->done = 1;
    int e = sync ? sync_dir(dir) : 0;
    if (e)
        *what = "cannot sync the directory of";
    return e;
}

void ipi_replace_abort(ipi_replace *r)
{
    if (r->fd >= 0)
        close(r->fd);
    r->fd = -1;
    r->anon = 0;
    if (r->tmp[0])
        unlink(r->tmp);
    r->tmp[0] = '\0';
}
