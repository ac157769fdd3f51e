/*
 * The streaming reader.
 *
 * A document is read as a sequence of small restartable steps (a top-level
 * key, one array element, a separator...). A step scans from the current
 * position and either completes, committing its side effects (callbacks,
 * diagnostics) only then, or reports that it ran out of window; the driver
 * then refills the window, keeping the bytes from the step's start, and
 * runs the step again. So no JSON value is ever held as a tree, nothing is
 * allocated per value, and memory is bounded by the largest element.
 *
 * This file is the driver: the top-level steps and the public API. What
 * each element does (checks, callbacks: read_process.c), the element
 * parser, the reference checks and the reports are beside it (scan.h
 * lists them).
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <iprof/stream.h>

#include "alloc.h"
#include "ctx.h"
#include "error.h"
#include "idset.h"
#include "json.h"
#include "reader_internal.h"
#include "rules.h"
#include "scan.h"
#include "source.h"
#include "version.h"

#define DEFAULT_CHUNK ((size_t)256 * 1024)
#define DEFAULT_MAX_ELEMENT ((size_t)1 << 30)
#define DEFAULT_MAX_DIAGS ((size_t)10000)

/* ------------------------------------------------------------------------ */
/* Top level                                                                */

/* instanceofProfiles in a file whose version lacks them. */
static int check_instanceof_version(scan *s)
{
    if (!s->iof_pending || !s->have_version || ipi_version_has_instanceof(&s->version))
        return IPROF_OK;
    s->iof_pending = 0;
    path_pos saved = s->at;
    s->at = (path_pos){IPROF_KIND_INSTANCEOF, F_NONE, UINT64_MAX, -1};
    int rc;
    /* The position was located when the section was met. */
    uint64_t off = s->iof_offset;
    if (off >= s->src.base && off <= s->src.base + s->src.len) {
        rc = ipi_scan_violation(s, IPROF_EVERSION, IPROF_SEVERITY_ERROR, (size_t)(off - s->src.base),
                       "%s requires format 1.1.0 or later, the file is %s",
                       ipi_scan_section_name(s, IPROF_KIND_INSTANCEOF), s->version_text);
    } else {
        char msg[IPI_MESSAGE_MAX], path[IPI_PATH_MAX];
        snprintf(msg, sizeof msg, "%s requires format 1.1.0 or later, the file is %s",
                 ipi_scan_section_name(s, IPROF_KIND_INSTANCEOF), s->version_text);
        ipi_scan_format_path(s, &s->at, path, sizeof path);
        iprof_error e = {IPROF_EVERSION, IPROF_SEVERITY_ERROR, off, s->iof_line,
                         s->iof_column, msg, path, NULL, 0, 0, 0, 0, 0, 0};
        rc = ipi_scan_report_located(s, &e);
    }
    s->at = saved;
    return rc;
}

/* The element limit holds for every source: streamed windows enforce it
 * as they grow, this catches elements of in-memory documents. */
static int check_size(scan *s, size_t from, size_t to)
{
    if (to - from <= s->r->max_element)
        return IPROF_OK;
    return ipi_scan_fail(s, IPROF_ELIMIT, from, "an element is larger than the limit of %zu bytes",
                s->r->max_element);
}

/* An element whose error lies past the size limit is reported as too
 * large, from memory as from a stream (whose window stops at the limit
 * before the parse gets there). The element's path, not a field's. */
static int limit_first(scan *s, size_t el_start, int rc)
{
    if (rc != IPROF_ESYNTAX && rc != IPROF_ESCHEMA && rc != IPROF_ELIMIT)
        return rc;
    if (!s->r->error.set ||
        s->r->error.err.offset <= s->src.base + el_start + s->r->max_element)
        return rc;
    s->at.field = F_NONE;
    s->at.sub = -1;
    return ipi_scan_fail(s, IPROF_ELIMIT, el_start,
                         "an element is larger than the limit of %zu bytes", s->r->max_element);
}

static int process_version(scan *s, const char *text, size_t len, size_t at)
{
    snprintf(s->version_text, sizeof s->version_text, "%.*s", (int)(len > 40 ? 40 : len), text);
    if (ipi_version_parse(text, len, &s->version))
        return ipi_scan_fail(s, IPROF_EVERSION, at, "malformed format version \"%s\"", s->version_text);
    switch (ipi_version_classify(&s->version)) {
    case IPI_VERSION_LEGACY:
        return ipi_scan_fail(s, IPROF_EVERSION, at,
                    "format version %s is not supported: its layout predates 0.2.0",
                    s->version_text);
    case IPI_VERSION_LEGACY_02: {
        int rc = ipi_scan_violation(s, IPROF_EVERSION, IPROF_SEVERITY_WARNING, at,
                           "unknown format version %s, read as 0.2.0", s->version_text);
        if (rc)
            return rc;
        break;
    }
    case IPI_VERSION_FUTURE:
        return ipi_scan_fail(s, IPROF_EVERSION, at,
                    "format version %s is not supported: major version %lld is newer than 1",
                    s->version_text, (long long)s->version.major);
    case IPI_VERSION_COMPAT: {
        int rc = ipi_scan_violation(s, IPROF_EVERSION, IPROF_SEVERITY_WARNING, at,
                           "unknown format version %s, read as %s", s->version_text,
                           s->version.major == 0 ? "0.4.0" : "1.x");
        if (rc)
            return rc;
        break;
    }
    default: {
        /* A known version spelled otherwise ("01.0.0"): read as that
         * version, though readers that match GraalVM's spellings would not. */
        char plain[72];
        int n = snprintf(plain, sizeof plain, "%lld.%lld.%lld", (long long)s->version.major,
                         (long long)s->version.minor, (long long)s->version.patch);
        int rc = n >= 0 && ((size_t)n != len || memcmp(plain, text, len) != 0)
                     ? ipi_scan_violation(s, IPROF_EVERSION, IPROF_SEVERITY_WARNING, at,
                                          "format version %s is spelled with leading zeros, "
                                          "read as %s", s->version_text, plain)
                     : IPROF_OK;
        if (rc)
            return rc;
        break;
    }
    }
    if (ipi_version_is_legacy(&s->version)) {
        /* Its keys are read by the version, which GraalVM wrote first. */
        if (s->nkeys > 1)
            return ipi_scan_fail(s, IPROF_EVERSION, at,
                        "format version %s must be the document's first key: its keys are "
                        "read by it", s->version_text);
        s->legacy = 1;
    }
    s->have_version = 1;
    if (s->cb && s->cb->on_version && s->cb->on_version(text, len, s->payload))
        return ipi_scan_fail(s, IPROF_ESTOPPED, at, "stopped by the on_version callback");
    return check_instanceof_version(s);
}

static int step_begin(scan *s)
{
    const char *p = WIN(s) + s->pos, *end = WIN(s) + s->src.len;
    /* A UTF-8 byte order mark is tolerated (RFC 8259 section 8.1). */
    if (s->src.base + s->pos == 0) {
        size_t have = (size_t)(end - p) < 3 ? (size_t)(end - p) : 3;
        if (have && memcmp(p, "\xEF\xBB\xBF", have) == 0) {
            if (have < 3)
                return s->src.eof ? ipi_scan_fail(s, IPROF_ESYNTAX, IDX(s, p), "unexpected character")
                                  : MORE;
            p += 3;
        }
    }
    p = ipi_json_skip_ws(p, end);
    if (p >= end)
        return MORE;
    if (*p == '{') {
        s->pos = IDX(s, p + 1);
        s->state = ST_KEY;
        s->first = 1;
        return IPROF_OK;
    }
    /* Not an object: say whether it is JSON at all. */
    const char *after, *err = p, *why = NULL;
    int rc = ipi_json_skip_value(&s->r->stack, p, end, s->src.eof, &after, &err, &why);
    if (rc == IPI_JSON_MORE)
        return MORE;
    if (rc)
        return ipi_scan_json_fail(s, rc, err, why);
    return ipi_scan_fail(s, IPROF_ESCHEMA, IDX(s, p), "an iprof document must be a JSON object");
}

static int close_document(scan *s, const char *p);

/* A known key may appear once; the two spellings of the instanceof key
 * are one key. Remembers the spelling the file uses. */
static int check_key_once(scan *s, int sec, size_t at)
{
    const char *key = s->r->key;
    if (sec == IPROF_KIND_INSTANCEOF) {
        int spelling = key[8] == 'O' ? IPROF_INSTANCEOF_KEY_CAMEL : IPROF_INSTANCEOF_KEY_LOWER;
        const char *first = ipi_instanceof_key_name(s->iof_key);
        int twice = (s->seen & SEC_BIT(sec)) && spelling != s->iof_key;
        s->iof_key = spelling; /* the path names the key at hand */
        if (twice)
            return ipi_scan_fail(s, IPROF_ESCHEMA, at,
                        "both %s and %s: one instanceof section spelled two ways", first, key);
    }
    if (s->seen & SEC_BIT(sec))
        return ipi_scan_fail(s, IPROF_ESCHEMA, at, "duplicate key \"%s\"", key);
    return IPROF_OK;
}

static int step_key(scan *s)
{
    iprof_reader *r = s->r;
    const char *p = ipi_json_skip_ws(WIN(s) + s->pos, WIN(s) + s->src.len);
    const char *end = WIN(s) + s->src.len, *after, *err = p, *why = NULL;
    int escaped;
    s->at = (path_pos){SEC_NONE, F_NONE, UINT64_MAX, -1};
    if (p >= end)
        return MORE;
    if (*p == '}' && s->first)
        return close_document(s, p);
    if (*p != '"')
        return ipi_scan_fail(s, IPROF_ESYNTAX, IDX(s, p), s->first ? "expected a key or '}'" : "expected a key");
    int rc = ipi_json_scan_string(p, end, &after, &escaped, &err, &why);
    if (rc == IPI_JSON_MORE)
        return MORE;
    if (rc)
        return ipi_scan_json_fail(s, rc, err, why);
    const char *colon = ipi_json_skip_ws(after, end);
    if (colon >= end)
        return MORE;
    if (*colon != ':')
        return ipi_scan_fail(s, IPROF_ESYNTAX, IDX(s, colon), "expected ':' after key");
    size_t raw = (size_t)(after - p) - 2;
    if (ipi_grow(&r->alloc, (void **)&r->key, &r->key_cap, raw + 1, 1))
        return ipi_scan_fail(s, IPROF_ENOMEM, IDX(s, p), "out of memory");
    if (escaped)
        r->key_len = ipi_json_decode(p + 1, raw, r->key);
    else {
        memcpy(r->key, p + 1, raw);
        r->key[raw] = '\0';
        r->key_len = raw;
    }
    s->nkeys++;
    int sec = s->legacy ? ipi_legacy_section_of(r->key, r->key_len)
                        : ipi_section_of(r->key, r->key_len);
    if (sec == IPI_SECTION_MODERN) { /* kept, it would clash with the 1.x key it becomes */
        s->at.section = SEC_UNKNOWN; /* the path names the key, as for other keys */
        return ipi_scan_fail(s, IPROF_ESCHEMA, IDX(s, p),
                    "\"%s\" is not a key of format %s: its sections are hotnessPoints, "
                    "conditionalPoints, invokePoints and monitorsProfile",
                    r->key, s->version_text);
    }
    s->at.section = sec;
    if (sec != SEC_UNKNOWN) {
        if ((rc = check_key_once(s, sec, IDX(s, p))) != IPROF_OK)
            return rc;
        s->seen |= SEC_BIT(sec);
    } else if ((rc = ipi_scan_violation(s, IPROF_ESCHEMA, IPROF_SEVERITY_WARNING, IDX(s, p),
                               "unknown top-level key \"%.*s%s\": not interpreted, kept as "
                               "is by models",
                               ipi_excerpt(r->key, r->key_len, 64), r->key,
                               IPI_CUT(r->key_len, 64))) != IPROF_OK) {
        return rc;
    }
    if (s->cb && s->cb->on_key &&
        s->cb->on_key(r->key, r->key_len, sec, s->payload))
        return ipi_scan_fail(s, IPROF_ESTOPPED, IDX(s, p), "stopped by the on_key callback");
    s->pos = IDX(s, colon + 1);
    s->state = ST_VALUE;
    return IPROF_OK;
}

/* 0.2.0's "monitorsProfile": {"records": [type id, count, ...]}, one
 * object for the whole run: the monitor entry of 1.x with its dummy ctx
 * "0:0". Empty records are no entry, as GraalVM's 0.4.0 and later write
 * "monitorProfiles": [] when nothing was locked. */
static int legacy_monitors(scan *s, const char **pp, const char *end)
{
    int rc = ipi_scan_element(s, pp, end);
    if (rc != IPROF_OK)
        return limit_first(s, s->el_start, rc);
    if ((rc = check_size(s, s->el_start, IDX(s, *pp))) != IPROF_OK)
        return rc;
    s->done |= SEC_BIT(IPROF_KIND_MONITOR);
    if (s->nnums == 0)
        return IPROF_OK;
    iprof_reader *r = s->r;
    if (r->frames_cap == 0 &&
        ipi_grow(&r->alloc, (void **)&r->frames, &r->frames_cap, 1, 2 * sizeof(int64_t)))
        return ipi_scan_fail(s, IPROF_ENOMEM, s->el_start, "out of memory");
    r->frames[0] = r->frames[1] = 0;
    s->nframes = 1;
    return ipi_scan_process_entry(s);
}

static int step_value(scan *s)
{
    const char *end = WIN(s) + s->src.len;
    const char *p = ipi_json_skip_ws(WIN(s) + s->pos, end);
    int sec = s->at.section, rc;
    if (p >= end)
        return MORE;
    if (sec == SEC_VERSION) {
        const char *text;
        size_t len;
        s->el_start = IDX(s, p);
        if ((rc = ipi_scan_string(s, &p, end, &text, &len, 0)) != IPROF_OK)
            return rc;
        if ((rc = process_version(s, text, len, s->el_start)) != IPROF_OK)
            return rc;
    } else if (s->legacy && sec == IPROF_KIND_MONITOR) {
        if ((rc = legacy_monitors(s, &p, end)) != IPROF_OK)
            return rc;
    } else if (sec == SEC_UNKNOWN) {
        const char *after, *err = p, *why = NULL;
        rc = ipi_json_skip_value(&s->r->stack, p, end, s->src.eof, &after, &err, &why);
        if (rc == IPI_JSON_MORE)
            return MORE;
        if (rc)
            return limit_first(s, IDX(s, p), ipi_scan_json_fail(s, rc, err, why));
        s->el_start = IDX(s, p);
        if ((rc = check_size(s, s->el_start, IDX(s, after))) != IPROF_OK)
            return rc;
        if (s->cb && s->cb->on_unknown &&
            s->cb->on_unknown(s->r->key, s->r->key_len, p, (size_t)(after - p), s->payload))
            return ipi_scan_stopped(s, "on_unknown");
        p = after;
    } else {
        if (*p != '[')
            return ipi_scan_fail(s, starts_other_value(*p) || *p == '-' || (*p >= '0' && *p <= '9')
                               ? IPROF_ESCHEMA : IPROF_ESYNTAX,
                        IDX(s, p), "expected an array");
        if (sec == IPROF_KIND_INSTANCEOF) {
            s->iof_pending = 1;
            s->iof_offset = s->src.base + IDX(s, p);
            ipi_scan_locate(s, s->iof_offset, &s->iof_line, &s->iof_column);
            if ((rc = check_instanceof_version(s)) != IPROF_OK)
                return rc;
        }
        s->pos = IDX(s, p + 1);
        s->first = 1;
        s->at.elem = 0;
        s->state = ST_ELEMENT;
        return IPROF_OK;
    }
    s->r->kept_end = s->src.base + IDX(s, p); /* the version or unknown value */
    s->pos = IDX(s, p);
    s->state = ST_AFTER_MEMBER;
    return IPROF_OK;
}

static void close_section(scan *s, const char *p)
{
    s->r->kept_end = s->src.base + IDX(s, p + 1);
    s->done |= SEC_BIT(s->at.section);
    s->at.elem = UINT64_MAX;
    s->pos = IDX(s, p + 1);
    s->state = ST_AFTER_MEMBER;
}

/* Past the comma at p, to the next element of the section. */
static void next_element(scan *s, const char *p)
{
    s->at.elem++;
    s->first = 0;
    s->pos = IDX(s, p + 1);
}

static int step_element(scan *s)
{
    const char *end = WIN(s) + s->src.len;
    const char *p = ipi_json_skip_ws(WIN(s) + s->pos, end);
    int rc;
    if (p >= end)
        return MORE;
    if (*p == ']') {
        if (!s->first)
            return ipi_scan_fail(s, IPROF_ESYNTAX, IDX(s, p), "expected a value after ','");
        close_section(s, p);
        return IPROF_OK;
    }
    if ((rc = ipi_scan_element(s, &p, end)) != IPROF_OK)
        return limit_first(s, s->el_start, rc);
    if ((rc = check_size(s, s->el_start, IDX(s, p))) != IPROF_OK)
        return rc;
    if (s->at.section == SEC_TYPES)
        rc = ipi_scan_process_type(s);
    else if (s->at.section == SEC_METHODS)
        rc = ipi_scan_process_method(s);
    else
        rc = ipi_scan_process_entry(s);
    if (rc)
        return rc;
    s->r->kept_end = s->src.base + IDX(s, p);
    if (p < end && *p == ',') { /* the usual next element: no extra step */
        next_element(s, p);
        return IPROF_OK;
    }
    s->pos = IDX(s, p);
    s->state = ST_AFTER_ELEMENT;
    return IPROF_OK;
}

static int step_after_element(scan *s)
{
    const char *end = WIN(s) + s->src.len;
    const char *p = ipi_json_skip_ws(WIN(s) + s->pos, end);
    if (p >= end)
        return MORE;
    if (*p == ',') {
        next_element(s, p);
        s->state = ST_ELEMENT;
        return IPROF_OK;
    }
    if (*p != ']')
        return ipi_scan_fail(s, IPROF_ESYNTAX, IDX(s, p), "expected ',' or ']'");
    close_section(s, p);
    return IPROF_OK;
}

/* At the document's closing brace p: the checks that need the whole
 * document. */
static int close_document(scan *s, const char *p)
{
    size_t at = IDX(s, p);
    static const struct { int sec; const char *name; } required[] = {
        {SEC_VERSION, "version"}, {SEC_TYPES, "types"}, {SEC_METHODS, "methods"}};
    s->at = (path_pos){SEC_NONE, F_NONE, UINT64_MAX, -1};
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
        if (!(s->seen & SEC_BIT(required[i].sec)))
            return ipi_scan_fail(s, IPROF_ESCHEMA, at, "the document is missing \"%s\"", required[i].name);
    int rc = check_instanceof_version(s);
    if (rc || (rc = ipi_scan_resolve_pending(s)))
        return rc;
    s->pos = at + 1;
    s->r->kept_end = s->src.base + s->pos;
    s->state = ST_END;
    return IPROF_OK;
}

static int step_after_member(scan *s)
{
    const char *end = WIN(s) + s->src.len;
    const char *p = ipi_json_skip_ws(WIN(s) + s->pos, end);
    s->at = (path_pos){SEC_NONE, F_NONE, UINT64_MAX, -1};
    if (p >= end)
        return MORE;
    if (*p == ',') {
        s->first = 0;
        s->pos = IDX(s, p + 1);
        s->state = ST_KEY;
        return IPROF_OK;
    }
    if (*p != '}')
        return ipi_scan_fail(s, IPROF_ESYNTAX, IDX(s, p), "expected ',' or '}'");
    return close_document(s, p);
}

static int step_end(scan *s)
{
    const char *end = WIN(s) + s->src.len;
    const char *p = ipi_json_skip_ws(WIN(s) + s->pos, end);
    if (p < end)
        return ipi_scan_fail(s, IPROF_ESYNTAX, IDX(s, p), "unexpected data after the document");
    if (!s->src.eof) {
        s->pos = IDX(s, p);
        return MORE;
    }
    s->state = ST_DONE;
    return IPROF_OK;
}

static int step(scan *s)
{
    switch (s->state) {
    case ST_BEGIN: return step_begin(s);
    case ST_KEY: return step_key(s);
    case ST_VALUE: return step_value(s);
    case ST_ELEMENT: return step_element(s);
    case ST_AFTER_ELEMENT: return step_after_element(s);
    case ST_AFTER_MEMBER: return step_after_member(s);
    default: return step_end(s);
    }
}

static int source_fail(scan *s, int rc)
{
    if (rc == IPROF_ELIMIT) { /* the element's path, not the field a restart left */
        s->at.field = F_NONE;
        s->at.sub = -1;
        return ipi_scan_fail(s, rc, s->pos, "an element is larger than the limit of %zu bytes",
                             s->r->max_element);
    }
    if (s->src.message) /* gzip: corrupt, truncated, unsupported, no memory; the
                         * damage starts after the bytes inflated */
        return ipi_scan_fail(s, rc, rc == IPROF_ESYNTAX ? s->src.len : s->pos, "%s",
                             s->src.message);
    if (rc == IPROF_ENOMEM)
        return ipi_scan_fail(s, rc, s->pos, "out of memory growing the input window");
    if (s->src.err_no) {
        char buf[128];
        return ipi_scan_fail(s, IPROF_EIO, s->pos, "read failed: %s",
                             ipi_strerror(s->src.err_no, buf, sizeof buf));
    }
    return ipi_scan_fail(s, IPROF_EIO, s->pos, "the read callback failed");
}

static int run(scan *s)
{
    for (;;) {
        int rc = step(s);
        if (rc == IPROF_OK) {
            if (s->state == ST_DONE)
                return IPROF_OK;
            continue;
        }
        if (rc != MORE)
            return rc;
        if (s->src.eof)
            return ipi_scan_fail(s, IPROF_ESYNTAX, s->src.len, "unexpected end of input");
        ipi_scan_forget(s, s->pos);
        rc = ipi_source_refill(&s->src, s->pos);
        s->pos = 0;
        if (rc)
            return source_fail(s, rc);
    }
}

/* ------------------------------------------------------------------------ */
/* Public API                                                               */

IPROF_API int iprof_read_options_init(iprof_read_options *opts, unsigned int version)
{
    if (!opts || version == 0 || version > IPROF_READ_OPTIONS_VERSION)
        return IPROF_EINVAL;
    memset(opts, 0, sizeof *opts);
    opts->version = version;
    return IPROF_OK;
}

IPROF_API int iprof_reader_new(iprof_reader **out, const iprof_read_options *opts)
{
    iprof_allocator alloc;
    if (!out)
        return IPROF_EINVAL;
    *out = NULL;
    /* The rule of every options struct: a version from 1 to the headers',
     * and no flag this library does not know. */
    if (opts && (opts->version == 0 || opts->version > IPROF_READ_OPTIONS_VERSION ||
                 (opts->flags & ~(IPROF_READ_STRICT | IPROF_READ_NO_REFERENCES |
                                  IPROF_READ_THREADED | IPROF_READ_SALVAGE))))
        return IPROF_EINVAL;
    ipi_allocator_init(&alloc, opts ? opts->allocator : NULL);
    iprof_reader *r = ipi_malloc(&alloc, sizeof *r);
    if (!r)
        return IPROF_ENOMEM;
    memset(r, 0, sizeof *r);
    r->alloc = alloc;
    if (opts) {
        r->flags = opts->flags;
        r->chunk = opts->chunk_size;
        r->max_element = opts->max_element_size;
        r->max_depth = opts->max_depth;
        r->max_diags = opts->max_diagnostics;
    }
    if (!r->chunk)
        r->chunk = DEFAULT_CHUNK;
    if (!r->max_element)
        r->max_element = DEFAULT_MAX_ELEMENT;
    if (!r->max_diags)
        r->max_diags = DEFAULT_MAX_DIAGS;
    r->stack.alloc = &r->alloc;
    r->stack.max_depth = r->max_depth;
    ipi_errbuf_clear(&r->error);
    ipi_diags_init(&r->diags, &r->alloc);
    ipi_idset_init(&r->type_ids);
    ipi_idset_init(&r->method_ids);
    *out = r;
    return IPROF_OK;
}

IPROF_API void iprof_reader_free(iprof_reader *r)
{
    if (!r)
        return;
    iprof_allocator a = r->alloc;
    ipi_diags_free(&r->diags);
    ipi_free(&a, r->window, r->window_cap);
    ipi_free(&a, r->frames, r->frames_cap * 2 * sizeof *r->frames);
    ipi_free(&a, r->nums, r->nums_cap * sizeof *r->nums);
    ipi_free(&a, r->text, r->text_cap);
    ipi_free(&a, r->key, r->key_cap);
    ipi_free(&a, r->pending, r->pending_cap * sizeof *r->pending);
    ipi_json_stack_free(&r->stack);
    ipi_idset_free(&r->type_ids, &a);
    ipi_idset_free(&r->method_ids, &a);
    ipi_free(&a, r, sizeof *r);
}

/* Reset the reader for a new read; EINVAL for bad callback structs. */
static int begin_read(iprof_reader *r, const iprof_read_callbacks *cb)
{
    ipi_errbuf_clear(&r->error);
    ipi_diags_clear(&r->diags);
    r->dropped[0] = r->dropped[1] = 0;
    ipi_idset_clear(&r->type_ids);
    ipi_idset_clear(&r->method_ids);
    r->pending_count = 0;
    r->key_len = 0;
    r->kept_end = 0;
    r->had_version = 0;
    r->salvaged = 0;
    r->unread = 0;
    r->unread_first[0] = '\0';
    if (cb && (cb->version < 1 || cb->version > IPROF_READ_CALLBACKS_VERSION))
        return ipi_errbuf_set(&r->error, IPROF_EINVAL,
                              "unsupported iprof_read_callbacks version %u", cb->version);
    return IPROF_OK;
}

static int read_source(iprof_reader *r, ipi_source *src, const iprof_read_callbacks *cb,
                       void *payload)
{
    scan s;
    memset(&s, 0, sizeof s);
    s.r = r;
    s.cb = cb;
    s.payload = payload;
    s.src = *src;
    s.state = ST_BEGIN;
    s.at = (path_pos){SEC_NONE, F_NONE, UINT64_MAX, -1};
    s.last_nl = s.base_last_nl = UINT64_MAX;
    int rc = run(&s);
    r->had_version = s.have_version;
    ipi_source_close(&s.src);
    return rc;
}

static void stream_source(iprof_reader *r, ipi_source *src, int fd, iprof_read_fn fn,
                          void *fn_payload)
{
    size_t max_window = r->max_element > SIZE_MAX - r->chunk ? SIZE_MAX
                                                             : r->max_element + r->chunk;
    ipi_source_init_stream(src, fd, fn, fn_payload, &r->window, &r->window_cap, r->chunk,
                           max_window, &r->alloc);
}

/* The source's own fields, for a read that has begun: IPROF_EINVAL with
 * the reason in the reader's error for what no read of its kind can use. */
static int check_source(iprof_reader *r, const iprof_source *src)
{
    if (!src)
        return ipi_errbuf_set(&r->error, IPROF_EINVAL, "NULL source");
    if (src->version < 1 || src->version > IPROF_SOURCE_VERSION)
        return ipi_errbuf_set(&r->error, IPROF_EINVAL, "unsupported iprof_source version %u",
                              src->version);
    switch (src->kind) {
    case IPROF_SOURCE_BUFFER:
        if (!src->data && src->len)
            return ipi_errbuf_set(&r->error, IPROF_EINVAL, "NULL buffer of %zu bytes",
                                  src->len);
        return IPROF_OK;
    case IPROF_SOURCE_PATH:
        return src->path ? IPROF_OK : ipi_errbuf_set(&r->error, IPROF_EINVAL, "NULL path");
    case IPROF_SOURCE_FD:
        return src->fd >= 0 ? IPROF_OK
                            : ipi_errbuf_set(&r->error, IPROF_EINVAL,
                                             "invalid file descriptor %d", src->fd);
    case IPROF_SOURCE_CALLBACK:
        return src->read_fn ? IPROF_OK
                            : ipi_errbuf_set(&r->error, IPROF_EINVAL, "NULL read function");
    default:
        return ipi_errbuf_set(&r->error, IPROF_EINVAL, "unknown iprof_source kind %d",
                              src->kind);
    }
}

int ipi_reader_check_source(iprof_reader *r, const iprof_source *src)
{
    int rc = begin_read(r, NULL);
    return rc ? rc : check_source(r, src);
}

static int read_path(iprof_reader *r, const char *path, const iprof_read_callbacks *cb,
                     void *payload)
{
    int fd = ipi_open_read(path), open_errno = errno;
    /* Windows opens no directory (EACCES): the same words as elsewhere. */
    if ((fd >= 0 ? ipi_fd_kind(fd) : ipi_path_kind(path, 1)) == IPI_KIND_DIR) {
        if (fd >= 0)
            ipi_fd_close(fd);
        return ipi_errbuf_set(&r->error, IPROF_EIO, "cannot read %s: it is a directory", path);
    }
    if (fd < 0) {
        char why[128];
        return ipi_errbuf_set(&r->error, IPROF_EIO, "cannot open %s: %s", path,
                              ipi_strerror(open_errno, why, sizeof why));
    }
    ipi_source src;
    stream_source(r, &src, fd, NULL, NULL);
    int rc = read_source(r, &src, cb, payload);
    ipi_fd_close(fd);
    return rc;
}

IPROF_API int iprof_reader_read(iprof_reader *r, const iprof_source *source,
                                const iprof_read_callbacks *cb, void *payload)
{
    if (!r)
        return IPROF_EINVAL;
    int rc = begin_read(r, cb);
    if (!rc)
        rc = check_source(r, source);
    if (rc)
        return rc;
    ipi_source src;
    switch (source->kind) {
    case IPROF_SOURCE_BUFFER:
        if (ipi_gzip_magic(source->data, source->len)) { /* inflated through the window */
            size_t max_window = r->max_element > SIZE_MAX - r->chunk
                                    ? SIZE_MAX
                                    : r->max_element + r->chunk;
            ipi_source_init_gzip_buffer(&src, source->data, source->len, &r->window,
                                        &r->window_cap, r->chunk, max_window, &r->alloc);
        } else {
            ipi_source_init_buffer(&src, source->data, source->len);
        }
        break;
    case IPROF_SOURCE_PATH: return read_path(r, source->path, cb, payload);
    case IPROF_SOURCE_FD: stream_source(r, &src, source->fd, NULL, NULL); break;
    default: stream_source(r, &src, -1, source->read_fn, source->read_payload); break;
    }
    return read_source(r, &src, cb, payload);
}

IPROF_API const iprof_error *iprof_reader_error(const iprof_reader *r)
{
    return r ? ipi_errbuf_get(&r->error) : NULL;
}

IPROF_API int iprof_reader_get_result(const iprof_reader *r, iprof_read_result *out)
{
    if (!r || !out || out->version != IPROF_READ_RESULT_VERSION)
        return IPROF_EINVAL;
    iprof_read_result res = IPROF_READ_RESULT_INIT;
    res.diag_count = r->diags.count;
    res.dropped_errors = r->dropped[0];
    res.dropped_warnings = r->dropped[1];
    res.unread_count = r->unread;
    res.unread_first = r->unread ? r->unread_first : NULL;
    res.damage = r->salvaged ? ipi_errbuf_get(&r->error) : NULL;
    res.kept_end = r->kept_end;
    *out = res;
    return IPROF_OK;
}

IPROF_API const iprof_error *iprof_reader_diag(const iprof_reader *r, size_t index)
{
    return r && index < r->diags.count ? &r->diags.items[index] : NULL;
}

/* ------------------------------------------------------------------------ */
/* Internal interface (reader_internal.h)                                   */

const iprof_allocator *ipi_reader_allocator(const iprof_reader *r)
{
    return &r->alloc;
}

unsigned ipi_reader_flags(const iprof_reader *r)
{
    return r->flags;
}

int ipi_reader_salvageable(const iprof_reader *r, int status)
{
    int damage = status == IPROF_ESYNTAX || status == IPROF_ESCHEMA ||
                 status == IPROF_EVERSION || status == IPROF_EDANGLING ||
                 status == IPROF_ELIMIT;
    return (r->flags & IPROF_READ_SALVAGE) && damage && r->had_version && r->error.set;
}

void ipi_reader_set_salvaged(iprof_reader *r)
{
    r->salvaged = 1;
}

void ipi_reader_fail(iprof_reader *r, int status, const char *message)
{
    ipi_diags_clear(&r->diags);
    ipi_errbuf_set(&r->error, status, "%s", message);
}

void ipi_reader_replace_error(iprof_reader *r, int status, const char *message)
{
    if (!r->error.set) { /* the read itself succeeded: no position */
        ipi_errbuf_set(&r->error, status, "%s", message);
        return;
    }
    r->error.err.status = status;
    snprintf(r->error.message, sizeof r->error.message, "%s", message);
}
