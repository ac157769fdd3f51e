/*
 * The report of the model operation that failed last (iprof_model_error):
 * a message, and what it is about (kind, context, type and method ids) so
 * that a program can act on it without parsing the message.
 */
#include <stdarg.h>
#include <stdio.h>

#include "ctx.h"
#include "model.h"

/* Record the subject into eb (its context as ctx text, cut to fit). */
static void set_subject(ipi_errbuf *eb, const ipi_subject *about)
{
    iprof_error *e = &eb->err;
    if (about->kind >= 0 && about->kind < IPROF_KIND_COUNT) {
        e->has_kind = 1;
        e->kind = about->kind;
    }
    if (about->type_id) {
        e->has_type = 1;
        e->type_id = *about->type_id;
    }
    if (about->method_id) {
        e->has_method = 1;
        e->method_id = *about->method_id;
    }
    size_t n = about->frame_count;
    while (about->frames && n && IPI_CTX_MAX_CHARS(n) >= sizeof eb->context)
        n--; /* the callee side is what identifies the position */
    if (about->frames && n)
        eb->context[ipi_ctx_format(eb->context, about->frames, n)] = '\0';
}

static int fail_v(iprof_model *m, int status, const ipi_subject *about, const char *fmt,
                  va_list ap)
{
    ipi_errbuf_vset(&m->error, status, fmt, ap);
    if (about)
        set_subject(&m->error, about);
    return status;
}

int ipi_model_fail(iprof_model *m, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fail_v(m, status, NULL, fmt, ap);
    va_end(ap);
    return status;
}

int ipi_model_fail_about(iprof_model *m, int status, const ipi_subject *about, const char *fmt,
                         ...)
{
    va_list ap;
    va_start(ap, fmt);
    fail_v(m, status, about, fmt, ap);
    va_end(ap);
    return status;
}

IPROF_API const iprof_error *iprof_model_error(const iprof_model *model)
{
    return model ? ipi_errbuf_get(&model->error) : NULL;
}
