/* Status strings, kind names and error holders. */
#include "error.h"

#include <stdio.h>
#include <string.h>

#include "alloc.h"

IPROF_API const char *iprof_status_string(int status)
{
    switch (status) {
    case IPROF_OK: return "ok";
    case IPROF_ENOMEM: return "out of memory";
    case IPROF_EIO: return "input/output error";
    case IPROF_ESYNTAX: return "JSON syntax error";
    case IPROF_ESCHEMA: return "schema violation";
    case IPROF_EVERSION: return "unsupported format version";
    case IPROF_EDANGLING: return "dangling reference";
    case IPROF_ELIMIT: return "limit exceeded";
    case IPROF_EINVAL: return "invalid argument";
    case IPROF_ESTOPPED: return "stopped by a callback";
    case IPROF_ESTATE: return "call out of order";
    case IPROF_ENOTFOUND: return "not found";
    default: return "unknown status";
    }
}

static const char *const kind_names[IPROF_KIND_COUNT] = {
    "callCountProfiles", "conditionalProfiles", "virtualInvokeProfiles",
    "monitorProfiles",   "samplingProfiles",    IPROF_INSTANCEOF_KEY_LOWER_NAME,
};

IPROF_API const char *iprof_kind_name(int kind)
{
    return kind >= 0 && kind < IPROF_KIND_COUNT ? kind_names[kind] : NULL;
}

const char *ipi_instanceof_key_name(int spelling)
{
    switch (spelling) {
    case IPROF_INSTANCEOF_KEY_LOWER: return IPROF_INSTANCEOF_KEY_LOWER_NAME;
    case IPROF_INSTANCEOF_KEY_CAMEL: return IPROF_INSTANCEOF_KEY_CAMEL_NAME;
    default: return NULL;
    }
}

IPROF_API int iprof_error_get_info(const iprof_error *err, iprof_error_info *out)
{
    if (!out || out->version != IPROF_ERROR_INFO_VERSION)
        return IPROF_EINVAL;
    iprof_error_info info = IPROF_ERROR_INFO_INIT;
    info.message = info.path = info.context = "";
    if (err) {
        info.status = err->status;
        info.severity = err->severity;
        if (err->has_kind)
            info.kind = err->kind;
        if (err->message)
            info.message = err->message;
        if (err->path)
            info.path = err->path;
        if (err->context)
            info.context = err->context;
        info.offset = err->offset;
        info.line = err->line;
        info.column = err->column;
        info.has_type_id = err->has_type != 0;
        info.has_method_id = err->has_method != 0;
        if (err->has_type)
            info.type_id = err->type_id;
        if (err->has_method)
            info.method_id = err->method_id;
    }
    *out = info;
    return IPROF_OK;
}

void ipi_errbuf_clear(ipi_errbuf *eb)
{
    memset(&eb->err, 0, sizeof eb->err);
    eb->set = 0;
    eb->message[0] = '\0';
    eb->path[0] = '\0';
    eb->context[0] = '\0';
    eb->err.message = eb->message;
    eb->err.path = eb->path;
    eb->err.context = eb->context;
}

int ipi_errbuf_vset(ipi_errbuf *eb, int status, const char *fmt, va_list ap)
{
    ipi_errbuf_clear(eb);
    eb->set = 1;
    eb->err.status = status;
    vsnprintf(eb->message, sizeof eb->message, fmt, ap);
    return status;
}

int ipi_errbuf_set(ipi_errbuf *eb, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ipi_errbuf_vset(eb, status, fmt, ap);
    va_end(ap);
    return status;
}

void ipi_errbuf_copy(ipi_errbuf *eb, const iprof_error *e)
{
    ipi_errbuf_clear(eb);
    eb->set = 1;
    eb->err.status = e->status;
    eb->err.severity = e->severity;
    eb->err.offset = e->offset;
    eb->err.line = e->line;
    eb->err.column = e->column;
    snprintf(eb->message, sizeof eb->message, "%s", e->message ? e->message : "");
    if (e->path) {
        snprintf(eb->path, sizeof eb->path, "%s", e->path);
        eb->err.path = eb->path;
    }
}

const iprof_error *ipi_errbuf_get(const ipi_errbuf *eb)
{
    return eb->set ? &eb->err : NULL;
}

void ipi_diags_init(ipi_diags *d, const iprof_allocator *alloc)
{
    memset(d, 0, sizeof *d);
    d->alloc = alloc;
    ipi_arena_init(&d->strings, alloc);
}

void ipi_diags_free(ipi_diags *d)
{
    ipi_free(d->alloc, d->items, d->cap * sizeof *d->items);
    ipi_arena_free(&d->strings);
    d->items = NULL;
    d->count = d->cap = 0;
}

void ipi_diags_clear(ipi_diags *d)
{
    ipi_diags_free(d);
    ipi_arena_init(&d->strings, d->alloc);
}

int ipi_diags_add(ipi_diags *d, const iprof_error *e)
{
    if (ipi_grow(d->alloc, (void **)&d->items, &d->cap, d->count + 1, sizeof *d->items))
        return IPROF_ENOMEM;
    const char *msg = e->message ? e->message : "";
    const char *path = e->path ? e->path : "";
    char *m = ipi_arena_strdup(&d->strings, msg, strlen(msg));
    char *p = ipi_arena_strdup(&d->strings, path, strlen(path));
    if (!m || !p)
        return IPROF_ENOMEM;
    iprof_error *slot = &d->items[d->count++];
    *slot = *e;
    slot->message = m;
    slot->path = p;
    /* Diagnostics are the reader's: positions, not model subjects. */
    slot->context = NULL;
    slot->has_kind = slot->has_type = slot->has_method = 0;
    return IPROF_OK;
}
