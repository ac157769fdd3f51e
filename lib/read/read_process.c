/*
 * What the reader does with an element that it has parsed: the checks that
 * need the whole element (the spelling of a ctx's fixed zeros, the
 * references it makes) and the callback it is handed to, with the count of
 * elements that had keys the reader does not read. The driver (reader.c)
 * calls these from its element step.
 */
#include <string.h>

#include <iprof/stream.h>

#include "ctx.h"
#include "error.h"
#include "reader_internal.h"
#include "rules.h"
#include "scan.h"


int ipi_scan_stopped(scan *s, const char *which)
{
    return ipi_scan_fail(s, IPROF_ESTOPPED, s->el_start, "stopped by the %s callback", which);
}

/* The element passed its checks and is handed over: if it had keys the
 * reader did not read, the read's count of such elements takes it (an
 * element a strict or salvaging read refuses is not counted). */
static void count_unread(scan *s)
{
    iprof_reader *r = s->r;
    if (!s->el_unread)
        return;
    s->el_unread = 0;
    if (r->unread++ == 0)
        memcpy(r->unread_first, s->el_unread_at, sizeof r->unread_first);
}

int ipi_scan_process_type(scan *s)
{
    int rc = ipi_scan_check_unique(s, 1);
    if (rc)
        return rc;
    count_unread(s);
    if (s->cb && s->cb->on_type && s->cb->on_type(s->id, s->name, s->name_len, s->payload))
        return ipi_scan_stopped(s, "on_type");
    return IPROF_OK;
}

int ipi_scan_process_method(scan *s)
{
    iprof_reader *r = s->r;
    int rc = ipi_scan_check_unique(s, 0);
    if (rc)
        return rc;
    if (s->nnums < 2) {
        s->at.field = F_SIGNATURE;
        rc = ipi_scan_violation(s, IPROF_ESCHEMA, IPROF_SEVERITY_ERROR, s->sig_at,
                                "signature must hold the declaring and return type ids");
        s->at.field = F_NONE;
        if (rc)
            return rc;
    }
    if ((rc = ipi_scan_check_signature_refs(s)))
        return rc;
    count_unread(s);
    if (s->cb && s->cb->on_method &&
        s->cb->on_method(s->id, s->name, s->name_len, r->nums, s->nnums, s->payload))
        return ipi_scan_stopped(s, "on_method");
    return IPROF_OK;
}

static iprof_entry_cb entry_callback(const iprof_read_callbacks *cb, int kind)
{
    if (!cb)
        return NULL;
    switch (kind) {
    case IPROF_KIND_CALL_COUNT: return cb->on_call_count;
    case IPROF_KIND_CONDITIONAL: return cb->on_conditional;
    case IPROF_KIND_VIRTUAL_INVOKE: return cb->on_virtual_invoke;
    case IPROF_KIND_MONITOR: return cb->on_monitor;
    case IPROF_KIND_SAMPLING: return cb->on_sampling;
    default: return cb->on_instanceof;
    }
}

/* The schema spells the fixed zeros of two kinds' ctx exactly: a monitor's
 * "0:0" and a call count's first bci "0", which "00" or "-0" would parse
 * to as well. The ctx's text is still in the window; only its start is
 * read (this runs for every call-count entry), and text with escapes there
 * is not judged. The message, or NULL when the spelling is right. */
static const char *odd_zero_spelling(const scan *s, int kind)
{
    if (s->legacy || (kind != IPROF_KIND_CALL_COUNT && kind != IPROF_KIND_MONITOR))
        return NULL;
    const char *p = WIN(s) + s->ctx_at, *end = WIN(s) + s->src.len, *q = p + 1;
    if (p >= end || *p != '"')
        return NULL;
    /* The first bci's text, after the first ':' (the rule already checked
     * that it reads as 0 and, for a monitor, that it is the only frame). */
    while (q < end && *q != ':' && *q != '"' && *q != '\\')
        q++;
    if (end - q < 3 || *q != ':' || q[1] == '\\' || q[2] == '\\')
        return NULL;
    int zero = q[1] == '0' && (q[2] == '"' || q[2] == '<');
    if (kind == IPROF_KIND_CALL_COUNT)
        return zero ? NULL : "a call-count ctx must start at bci 0, written \"0\"";
    return zero && q == p + 2 && p[1] == '0' ? NULL : "a monitor ctx must be \"0:0\"";
}

int ipi_scan_process_entry(scan *s)
{
    iprof_reader *r = s->r;
    int kind = s->at.section;
    int rule = ipi_rule_check_entry(kind, r->frames, s->nframes, r->nums, s->nnums);
    int rc;
    const char *odd = rule == IPI_RULE_OK ? odd_zero_spelling(s, kind) : NULL;
    if (odd) {
        s->at.field = F_CTX;
        rc = ipi_scan_violation(s, IPROF_ESCHEMA, IPROF_SEVERITY_ERROR, s->ctx_at, "%s", odd);
        s->at.field = F_NONE;
        if (rc)
            return rc;
    }
    if (rule != IPI_RULE_OK) {
        int on_ctx = ipi_rule_is_ctx(rule);
        s->at.field = on_ctx ? F_CTX : F_RECORDS;
        rc = ipi_scan_violation(s, IPROF_ESCHEMA, IPROF_SEVERITY_ERROR, on_ctx ? s->ctx_at : s->rec_at,
                       "%s", ipi_rule_message(rule));
        s->at.field = F_NONE;
        if (rc)
            return rc;
    }
    if ((rc = ipi_scan_check_entry_refs(s, kind)))
        return rc;
    count_unread(s);
    iprof_entry_cb fn = entry_callback(s->cb, kind);
    if (fn && fn(kind, r->frames, s->nframes, r->nums, s->nnums, s->payload))
        return ipi_scan_stopped(s, iprof_kind_name(kind));
    return IPROF_OK;
}
