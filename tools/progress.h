/* A progress bar on stderr for the long-running subcommands.
 *
 * Drawn only when stderr is a terminal (isatty(2)) and the work has lasted
 * more than a second; redrawn at most every 100 ms; erased at the end.
 * When stderr is not a terminal nothing is ever written, so the output of
 * a command in a pipe, a file or a test is the same with or without it.
 *
 *   progress_bar bar = {0};
 *   progress_bar_start(&bar, "iprof diff: reading A.iprof", size_in_bytes);
 *   ... progress_bar_update(&bar, bytes_done); ...
 *   progress_bar_start(&bar, "iprof diff: comparing", units);  (next phase:
 *                                                   the clock keeps running)
 *   ... progress_bar_update(&bar, units_done); ...
 *   progress_bar_end(&bar);   (erases the bar; the struct may be reused)
 *
 * A total of 0 means unknown: the bar then shows the count done. The state
 * lives in the caller's struct (no global state); the label is borrowed
 * until the next start or the end.
 *
 * For tests only: IPROF_PROGRESS_TEST_DELAY_MS=N makes every update sleep
 * N ms, so that a small input takes long enough to show the bar (see
 * tests/test_tool_diff.py, which runs the command under a pseudo-terminal).
 */
#ifndef IPROF_TOOL_PROGRESS_H
#define IPROF_TOOL_PROGRESS_H

#include <stdint.h>

#include <iprof/iprof.h>

typedef struct progress_bar {
    const char *label;
    uint64_t total;
    double start, last; /* monotonic seconds: first start, last redraw */
    long test_delay_ms;
    int started, enabled, shown;
} progress_bar;

/* Begin the work (the first call on a zeroed struct starts the clock) or a
 * new phase of it (later calls keep the clock). */
void progress_bar_start(progress_bar *p, const char *label, uint64_t total);
/* @p done units of the current phase are done. Cheap when nothing is drawn. */
void progress_bar_update(progress_bar *p, uint64_t done);
/* The work is over: erase the bar if it was drawn. */
void progress_bar_end(progress_bar *p);

/* Load a model from FILE ("-": stdin) as load_model() in tool.h does, with
 * a phase "LABEL" counting the bytes read (of the file's size when it is a
 * regular file). Returns TOOL_EXIT_OK, or the exit code after printing the
 * diagnostics and the error. */
int progress_load_model(progress_bar *p, const char *label, iprof_model **out,
                        iprof_reader *reader, const char *file);

/* Merge FILE into dst as it is read (iprof_model_merge_source), with a
 * phase "LABEL" as above. Returns the library's status; *read_failed says
 * whether reading failed (then the diagnostics and the error are printed
 * here) rather than merging (left to the caller, in dst's error). */
int progress_merge_model(progress_bar *p, const char *label, iprof_model *dst,
                         iprof_reader *reader, const char *file,
                         const iprof_merge_options *opts, int *read_failed);

#endif /* IPROF_TOOL_PROGRESS_H */
