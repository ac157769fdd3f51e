/* Shared by the post-processing subcommands (merge, convert, filter):
 * writing the resulting model and checking what its version can hold. */
#ifndef IPROF_TOOL_POST_H
#define IPROF_TOOL_POST_H

#include "progress.h"
#include "tool.h"

typedef struct post_output {
    const char *path; /* OUT; NULL or "-": standard output */
    const char *to;   /* format version, or NULL: the model's */
    int pretty;       /* IPROF_WRITE_PRETTY */
    int drop;         /* IPROF_WRITE_DROP_INSTANCEOF */
    int lenient;      /* IPROF_WRITE_NO_VALIDATE: copy what a lenient read kept */
    int iof_key;      /* IPROF_INSTANCEOF_KEY_*: the instanceof key written */
    const char *canonical; /* IPROF_WRITE_CANONICAL when set: the model's name
                              in the messages if it has no canonical form */
    int drop_unknown; /* IPROF_WRITE_DROP_UNKNOWN (post_check_unread said so) */
    const char *input; /* the model's name in messages about it (not about
                          the output), or NULL: the output's */
} post_output;

/* Whether @p v is 0.2.0, 0.4.0, 1.0.0 or 1.1.0. */
int post_known_version(const char *v);
/* Whether format version @p version (1.1 or a later 1.x) has instanceof
 * profiles. */
int post_version_has_instanceof(const char *version);
/* Refuse (exit 1, message on stderr) to write instanceof profiles in a
 * version without them unless dropping them was asked for. */
int post_check_instanceof(const char *cmd, const char *file, const post_output *o,
                          const iprof_model *model);
/* Refuse (exit 1, message on stderr) to write sampling profiles in the
 * legacy 0.2.x layout, which has no place for them, before any output. */
int post_check_legacy(const char *cmd, const char *file, const char *target,
                      const iprof_model *model);
/* Whether a failed write's status is about the model (what it holds
 * cannot be written as asked), so that its message names the input. */
int post_about_model(int rc);
/* Write @p model to o->path atomically (a name ending in ".gz" is written
 * gzip-compressed by the library) or to standard output, with a phase
 * "CMD: writing" on @p bar; in canonical form with o->canonical (nothing
 * is written when the model has none: unknown top-level keys that cannot
 * be renumbered fail it, the message names them and says --drop-unknown).
 * Returns the exit code after printing any failure. */
int post_write(const char *cmd, const post_output *o, const iprof_model *model,
               progress_bar *bar);
/* Keys of types, methods and entries that iprof does not read (iprof(1),
 * KEYS IPROF DOES NOT READ): a command that writes a profile refuses a
 * model that lacks some its input held (iprof_model_unread_count())
 * unless @p drop, before any output. Returns TOOL_EXIT_OK, or
 * TOOL_EXIT_INVALID after saying why on stderr. */
int post_check_unread(const char *cmd, const char *name, int drop, const iprof_model *model);
/* Drop every unknown top-level key of the model, saying on stderr what
 * was dropped: "CMD: NAME: dropped unknown key "K" (N bytes)". Returns
 * how many were dropped. */
size_t post_drop_unknown(const char *cmd, const char *name, iprof_model *model);
/* After the model was written with --drop-unknown: the verdict on stderr
 * when it lacks the keys of elements ("CMD: NAME: written without the keys
 * of N elements that iprof does not read"), and the exit status:
 * TOOL_EXIT_DROPPED when those or @p top_level_dropped keys (those
 * post_drop_unknown dropped) are not in the output, else TOOL_EXIT_OK. */
int post_dropped(const char *cmd, const char *name, const iprof_model *model,
                 size_t top_level_dropped);
/* What to tell the user after a model operation failed: how to go on when
 * unknown keys were the reason, else "". */
const char *post_unknown_hint(const iprof_model *model);

#endif /* IPROF_TOOL_POST_H */
