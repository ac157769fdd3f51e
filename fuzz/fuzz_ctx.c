/*
 * Fuzz the internal ctx text parser (lib/format/ctx.c).
 *
 * ipi_ctx_parse on the input; on success ipi_ctx_format the frames and
 * parse that again: the frames must be equal, and the text must equal the
 * input when the input is canonical (no leading zeros, no "-0").
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "ctx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FAIL(msg)                                                            \
    do {                                                                     \
        fprintf(stderr, "%s:%d: invariant broken: %s\n", __FILE__, __LINE__, \
                (msg));                                                      \
        __builtin_trap();                                                    \
    } while (0)

/* Whether the text has a number with a leading zero or a "-0". */
static int non_canonical(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        int starts = i == 0 || s[i - 1] == ':' || s[i - 1] == '<' || s[i - 1] == '-';
        if (s[i] == '-' && i + 1 < len && s[i + 1] == '0')
            return 1;
        if (starts && s[i] == '0' && i + 1 < len && s[i + 1] >= '0' && s[i + 1] <= '9')
            return 1;
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1u << 20))
        return 0;
    iprof_allocator a;
    ipi_allocator_init(&a, NULL);
    /* A copy without a NUL after it: the parser must stay within len. */
    char *s = malloc(size ? size : 1);
    if (!s)
        return 0;
    if (size)
        memcpy(s, data, size);
    int64_t *frames = NULL, *frames2 = NULL;
    size_t cap = 0, cap2 = 0, count = 0, count2 = 0, err_at = 0;
    int rc = ipi_ctx_parse(s, size, &frames, &cap, &count, &err_at, &a);
    if (rc < 0)
        FAIL("ipi_ctx_parse: out of memory");
    if (rc != IPI_CTX_OK) {
        if (rc != IPI_CTX_SYNTAX && rc != IPI_CTX_RANGE)
            FAIL("unknown result");
        if (err_at > size)
            FAIL("error position beyond the input");
    } else {
        if (count == 0 || count > cap)
            FAIL("frame count");
        char *text = malloc(IPI_CTX_MAX_CHARS(count));
        if (!text)
            FAIL("malloc");
        size_t tlen = ipi_ctx_format(text, frames, count);
        if (tlen > IPI_CTX_MAX_CHARS(count))
            FAIL("format wrote beyond its bound");
        rc = ipi_ctx_parse(text, tlen, &frames2, &cap2, &count2, &err_at, &a);
        if (rc != IPI_CTX_OK)
            FAIL("formatted text does not parse");
        if (count2 != count || memcmp(frames, frames2, 2 * count * sizeof *frames) != 0)
            FAIL("frames differ after format and parse");
        if (!non_canonical(s, size) && (tlen != size || memcmp(text, s, size) != 0))
            FAIL("canonical input formats differently");
        free(text);
    }
    ipi_free(&a, frames, cap * 2 * sizeof *frames);
    ipi_free(&a, frames2, cap2 * 2 * sizeof *frames2);
    free(s);
    return 0;
}
