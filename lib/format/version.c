/* Library version, format-version parsing and per-version layouts. */
#include "version.h"

IPROF_API const char *iprof_version_string(void)
{
    return IPROF_VERSION_STRING;
}

static int parse_part(const char **p, const char *end, int64_t *out)
{
    const char *s = *p;
    int64_t v = 0;
    if (s == end || *s < '0' || *s > '9')
        return -1;
    while (s < end && *s >= '0' && *s <= '9') {
        if (v > (INT64_MAX - 9) / 10)
            return -1;
        v = v * 10 + (*s++ - '0');
    }
    *p = s;
    *out = v;
    return 0;
}

int ipi_version_parse(const char *s, size_t len, ipi_fmtver *out)
{
    const char *p = s, *end = s + len;
    if (parse_part(&p, end, &out->major) || p == end || *p++ != '.' ||
        parse_part(&p, end, &out->minor) || p == end || *p++ != '.' ||
        parse_part(&p, end, &out->patch) || p != end)
        return IPROF_EVERSION;
    return IPROF_OK;
}

int ipi_version_classify(const ipi_fmtver *v)
{
    if (v->major >= 2)
        return IPI_VERSION_FUTURE;
    if (v->major == 0 && v->minor < 2)
        return IPI_VERSION_LEGACY;
    if (ipi_version_is_legacy(v))
        return v->patch == 0 ? IPI_VERSION_KNOWN : IPI_VERSION_LEGACY_02;
    if ((v->major == 0 && v->minor == 4 && v->patch == 0) ||
        (v->major == 1 && v->minor <= 1 && v->patch == 0))
        return IPI_VERSION_KNOWN;
    return IPI_VERSION_COMPAT;
}

int ipi_version_has_instanceof(const ipi_fmtver *v)
{
    return v->major == 1 && v->minor >= 1;
}

int ipi_version_is_legacy(const ipi_fmtver *v)
{
    return v->major == 0 && v->minor == 2;
}

size_t ipi_version_layout(const ipi_fmtver *v, int kinds[IPROF_KIND_COUNT])
{
    static const int v04[] = {IPROF_KIND_MONITOR, IPROF_KIND_VIRTUAL_INVOKE,
                              IPROF_KIND_CALL_COUNT, IPROF_KIND_CONDITIONAL,
                              IPROF_KIND_SAMPLING, IPROF_KIND_INSTANCEOF};
    static const int v1[] = {IPROF_KIND_CALL_COUNT, IPROF_KIND_CONDITIONAL,
                             IPROF_KIND_VIRTUAL_INVOKE, IPROF_KIND_MONITOR,
                             IPROF_KIND_SAMPLING, IPROF_KIND_INSTANCEOF};
    /* hotnessPoints, conditionalPoints, invokePoints, monitorsProfile */
    static const int v02[] = {IPROF_KIND_CALL_COUNT, IPROF_KIND_CONDITIONAL,
                              IPROF_KIND_VIRTUAL_INVOKE, IPROF_KIND_MONITOR};
    const int *src = ipi_version_is_legacy(v) ? v02 : v->major == 0 ? v04 : v1;
    size_t n = ipi_version_is_legacy(v) ? 4 : ipi_version_has_instanceof(v) ? 6 : 5;
    for (size_t i = 0; i < n; i++)
        kinds[i] = src[i];
    return n;
}
