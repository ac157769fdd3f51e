/* The ctx text of profile entries: "5:0<3:2<2:2<1:3", callee first.
 * Frames are interleaved int64 pairs (method id, bci). */
#ifndef IPI_CTX_H
#define IPI_CTX_H

#include <iprof/iprof.h>

/* Why a ctx text did not parse. */
enum ipi_ctx_error {
    IPI_CTX_OK = 0,
    IPI_CTX_SYNTAX = 1, /* not digits ':' -?digits ('<' ...)* */
    IPI_CTX_RANGE = 2   /* a number does not fit int64 */
};

/*
 * Parse s[0..len) into *frames (grown with alloc as needed, *cap in
 * frames, i.e. pairs). Sets *count. Returns IPI_CTX_OK, IPI_CTX_SYNTAX or
 * IPI_CTX_RANGE with *err_at the byte index of the problem, or
 * IPROF_ENOMEM (negative).
 */
int ipi_ctx_parse(const char *s, size_t len, int64_t **frames, size_t *cap, size_t *count,
                  size_t *err_at, const iprof_allocator *alloc);

/* The same with another separator: ',' for the methodBciList of the
 * legacy 0.2.0 layout, the same frames in the same order (innermost
 * first) joined by ',' instead of '<' ("5:0,3:2"). */
int ipi_ctx_parse_sep(const char *s, size_t len, char sep, int64_t **frames, size_t *cap,
                      size_t *count, size_t *err_at, const iprof_allocator *alloc);

/* Upper bound of the text length of count frames. */
#define IPI_CTX_MAX_CHARS(count) ((count) * (2 * 20 + 2))

/* Print frames as ctx text into out (no NUL); returns the length. out must
 * hold IPI_CTX_MAX_CHARS(count) bytes. */
size_t ipi_ctx_format(char *out, const int64_t *frames, size_t count);
/* The same with another separator (',' for 0.2.0's methodBciList). */
size_t ipi_ctx_format_sep(char *out, const int64_t *frames, size_t count, char sep);

#endif
