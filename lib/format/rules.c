/* Entry rules from the format document and the schema. */
#include "rules.h"

#include <string.h>

static const ipi_kind_layout layouts[IPROF_KIND_COUNT] = {
    [IPROF_KIND_CALL_COUNT] = {1, -1, 0, 1},
    [IPROF_KIND_CONDITIONAL] = {3, -1, 2, 1},
    [IPROF_KIND_VIRTUAL_INVOKE] = {2, 0, 1, 1},
    [IPROF_KIND_MONITOR] = {2, 0, 1, 0}, /* its 0:0 ctx is a dummy */
    [IPROF_KIND_SAMPLING] = {1, -1, 0, 1},
    [IPROF_KIND_INSTANCEOF] = {2, 0, 1, 1},
};

const ipi_kind_layout *ipi_kind_layout_of(int kind)
{
    return &layouts[kind];
}

int ipi_rule_check_entry(int kind, const int64_t *frames, size_t frame_count,
                         const int64_t *records, size_t record_count)
{
    (void)records;
    if (frame_count == 0)
        return IPI_RULE_NO_FRAMES;
    for (size_t i = 0; i < frame_count; i++)
        if (frames[2 * i] < 0)
            return IPI_RULE_NEGATIVE_METHOD;
    switch (kind) {
    case IPROF_KIND_CALL_COUNT:
        if (frames[1] != 0)
            return IPI_RULE_CALL_COUNT_BCI;
        return record_count == 1 ? IPI_RULE_OK : IPI_RULE_RECORDS_ONE;
    case IPROF_KIND_SAMPLING:
        return record_count == 1 ? IPI_RULE_OK : IPI_RULE_RECORDS_ONE;
    case IPROF_KIND_CONDITIONAL:
        return record_count % 3 == 0 ? IPI_RULE_OK : IPI_RULE_RECORDS_TRIPLES;
    case IPROF_KIND_MONITOR:
        if (frame_count != 1 || frames[0] != 0 || frames[1] != 0)
            return IPI_RULE_MONITOR_CTX;
        return record_count % 2 == 0 ? IPI_RULE_OK : IPI_RULE_RECORDS_PAIRS;
    default: /* virtual invoke, instanceof */
        return record_count % 2 == 0 ? IPI_RULE_OK : IPI_RULE_RECORDS_PAIRS;
    }
}

const char *ipi_rule_message(int rule)
{
    switch (rule) {
    case IPI_RULE_NO_FRAMES: return "a ctx needs at least one frame";
    case IPI_RULE_NEGATIVE_METHOD: return "a method id in a ctx must not be negative";
    case IPI_RULE_CALL_COUNT_BCI: return "a call-count ctx must start at bci 0";
    case IPI_RULE_MONITOR_CTX: return "a monitor ctx must be \"0:0\"";
    case IPI_RULE_RECORDS_ONE: return "records must hold exactly one value";
    case IPI_RULE_RECORDS_TRIPLES: return "records must be (bci, index, count) triples";
    case IPI_RULE_RECORDS_PAIRS: return "records must be (type id, count) pairs";
    default: return "ok";
    }
}

int ipi_rule_is_ctx(int rule)
{
    return rule == IPI_RULE_NO_FRAMES || rule == IPI_RULE_NEGATIVE_METHOD ||
           rule == IPI_RULE_CALL_COUNT_BCI || rule == IPI_RULE_MONITOR_CTX;
}

int ipi_section_of(const char *key, size_t len)
{
    if (len == 18 && memcmp(key, "instanceOfProfiles", 18) == 0)
        return IPROF_KIND_INSTANCEOF; /* GraalVM's spelling; the document's is below */
    if (len == 7 && memcmp(key, "version", 7) == 0)
        return IPROF_SECTION_VERSION;
    if (len == 5 && memcmp(key, "types", 5) == 0)
        return IPROF_SECTION_TYPES;
    if (len == 7 && memcmp(key, "methods", 7) == 0)
        return IPROF_SECTION_METHODS;
    for (int k = 0; k < IPROF_KIND_COUNT; k++) {
        const char *name = iprof_kind_name(k);
        if (strlen(name) == len && memcmp(key, name, len) == 0)
            return k;
    }
    return IPROF_SECTION_UNKNOWN;
}

static const char *const legacy_keys[IPROF_KIND_COUNT] = {
    [IPROF_KIND_CALL_COUNT] = "hotnessPoints",
    [IPROF_KIND_CONDITIONAL] = "conditionalPoints",
    [IPROF_KIND_VIRTUAL_INVOKE] = "invokePoints",
    [IPROF_KIND_MONITOR] = "monitorsProfile",
};

const char *ipi_legacy_kind_key(int kind)
{
    return kind >= 0 && kind < IPROF_KIND_COUNT ? legacy_keys[kind] : NULL;
}

int ipi_legacy_section_of(const char *key, size_t len)
{
    for (int k = 0; k < IPROF_KIND_COUNT; k++)
        if (legacy_keys[k] && strlen(legacy_keys[k]) == len && memcmp(key, legacy_keys[k], len) == 0)
            return k;
    int sec = ipi_section_of(key, len);
    return sec >= 0 && sec < IPROF_KIND_COUNT ? IPI_SECTION_MODERN : sec;
}
