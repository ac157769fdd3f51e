/* The reader's reference checks: ids unique in their section, type and
 * method ids that must exist, and those met before their section that wait
 * for the document's end (scan.h). */
#include <stdio.h>

#include "alloc.h"
#include "scan.h"

/* Window index of number k of the integer array starting at `at` (its
 * '['): only for reporting, so a re-scan is fine. */
static size_t nth_number(const scan *s, size_t at, size_t k)
{
    const char *p = WIN(s) + at + 1, *end = WIN(s) + s->src.len;
    for (size_t i = 0;; i++) {
        p = ipi_json_skip_ws(p, end);
        if (i == k || p >= end)
            return IDX(s, p);
        while (p < end && *p != ',' && *p != ']')
            p++;
        if (p < end)
            p++;
    }
}

/* Check that a type or method id exists; wait for its section if that has
 * not been read yet. The position to report is the window index `at`, or
 * with k != SIZE_MAX number k of the array at `at` (found only when
 * needed: the common case must not pay for it). */
static int check_ref(scan *s, int64_t id, int is_type, size_t at, size_t k)
{
    iprof_reader *r = s->r;
    int sec = is_type ? SEC_TYPES : SEC_METHODS;
    ipi_idset *set = is_type ? &r->type_ids : &r->method_ids;
    const char *noun = is_type ? "type" : "method";
    if (s->done & SEC_BIT(sec)) {
        if (ipi_idset_has(set, id))
            return IPROF_OK;
        if (k != SIZE_MAX)
            at = nth_number(s, at, k);
        return ipi_scan_violation(s, IPROF_EDANGLING, IPROF_SEVERITY_ERROR, at,
                         "%s id %lld is not defined", noun, (long long)id);
    }
    if (k != SIZE_MAX)
        at = nth_number(s, at, k);
    if (ipi_grow(&r->alloc, (void **)&r->pending, &r->pending_cap, r->pending_count + 1,
                 sizeof *r->pending))
        return ipi_scan_fail(s, IPROF_ENOMEM, at, "out of memory");
    pending_ref *pr = &r->pending[r->pending_count++];
    pr->id = id;
    pr->is_type = is_type;
    pr->at = s->at;
    pr->offset = s->src.base + at;
    ipi_scan_locate(s, pr->offset, &pr->line, &pr->column);
    return IPROF_OK;
}

/* Record a unique id; a repeat is a violation at the id. */
int ipi_scan_check_unique(scan *s, int is_type)
{
    iprof_reader *r = s->r;
    if (r->flags & IPROF_READ_NO_REFERENCES)
        return IPROF_OK;
    ipi_idset *set = is_type ? &r->type_ids : &r->method_ids;
    int added;
    if (ipi_idset_add(set, &r->alloc, s->id, &added))
        return ipi_scan_fail(s, IPROF_ENOMEM, s->el_start, "out of memory");
    if (!added) {
        s->at.field = F_ID;
        int rc = ipi_scan_violation(s, IPROF_ESCHEMA, IPROF_SEVERITY_ERROR, s->id_at,
                           "duplicate %s id %lld", is_type ? "type" : "method",
                           (long long)s->id);
        s->at.field = F_NONE;
        return rc;
    }
    return IPROF_OK;
}

int ipi_scan_ref_unknown(scan *s, int64_t id, int is_type, int field, size_t at, size_t k)
{
    s->at.field = field;
    s->at.sub = k == SIZE_MAX ? -1 : (int64_t)k;
    int rc = check_ref(s, id, is_type, at, k);
    s->at.field = F_NONE;
    s->at.sub = -1;
    return rc;
}

/* Report references that waited for a later section and are missing. */
int ipi_scan_resolve_pending(scan *s)
{
    iprof_reader *r = s->r;
    for (size_t i = 0; i < r->pending_count; i++) {
        const pending_ref *pr = &r->pending[i];
        if (ipi_idset_has(pr->is_type ? &r->type_ids : &r->method_ids, pr->id))
            continue;
        char msg[IPI_MESSAGE_MAX], path[IPI_PATH_MAX];
        snprintf(msg, sizeof msg, "%s id %lld is not defined", pr->is_type ? "type" : "method",
                 (long long)pr->id);
        ipi_scan_format_path(s, &pr->at, path, sizeof path);
        iprof_error e = {IPROF_EDANGLING, IPROF_SEVERITY_ERROR, pr->offset, pr->line,
                         pr->column, msg, path, NULL, 0, 0, 0, 0, 0, 0};
        int rc = ipi_scan_report_located(s, &e);
        if (rc)
            return rc;
    }
    return IPROF_OK;
}

