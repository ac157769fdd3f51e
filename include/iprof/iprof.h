/**
 * @file iprof/iprof.h
 * @brief libiprof: read, write, model and merge GraalVM Native Image PGO
 * profiles (.iprof files, format versions 0.2.0, 0.4.0, 1.0.0 and 1.1.0).
 *
 * Include this header to get the whole API:
 *   common.h  status codes, allocator, errors, kinds, versions
 *   reader.h  the streaming reader (callbacks per element)
 *   model.h   the in-memory model, its mutation and merge
 *   writer.h  the streaming and whole-model writer
 *   transform.h  the canonical form and filtering of a model
 *   diff.h    comparing two models (iprof_diff)
 *   analysis.h  what a profile tells the compiler: branch probabilities,
 *             receiver-type shares
 *
 * Conventions: functions are iprof_<object>_<verb>; a handle a function
 * creates comes back through its first parameter
 * (iprof_model_load_path(&model, reader, path)), every other out parameter
 * (a length, a count, an id, a caller's array or buffer and its size)
 * comes after the inputs (iprof_entry_records(entry, &len)); handles are
 * opaque and created and freed by the library;
 * callbacks take a trailing void *payload; fallible calls return an int
 * status (IPROF_OK or a negative IPROF_E* code). The library has no global
 * state: separate handles may be used from separate threads at once.
 *
 * Ownership: a handle returned through an out parameter belongs to the
 * caller, who frees it with its *_free function; every other pointer the
 * library returns is borrowed from the handle it came from and lives as
 * long as the function's documentation says. Pointers passed in are
 * borrowed for the call unless documented as copied or kept.
 */
#ifndef IPROF_IPROF_H
#define IPROF_IPROF_H

#include <iprof/common.h>
#include <iprof/reader.h>
#include <iprof/model.h>
#include <iprof/writer.h>
#include <iprof/transform.h>
#include <iprof/diff.h>
#include <iprof/analysis.h>

#endif /* IPROF_IPROF_H */
