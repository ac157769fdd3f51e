/* The format's rules for one profile entry, shared by the reader (which
 * validates input), the writer (which validates output) and model mutation,
 * so the three agree by construction. */
#ifndef IPI_RULES_H
#define IPI_RULES_H

#include <iprof/iprof.h>
#include <iprof/stream.h>

enum ipi_rule {
    IPI_RULE_OK = 0,
    IPI_RULE_NO_FRAMES,        /* a ctx has at least one frame */
    IPI_RULE_NEGATIVE_METHOD,  /* ctx method ids are [0-9]+ */
    IPI_RULE_CALL_COUNT_BCI,   /* a call-count ctx starts at bci 0 */
    IPI_RULE_MONITOR_CTX,      /* a monitor ctx is exactly 0:0 */
    IPI_RULE_RECORDS_ONE,      /* call count and sampling hold one value */
    IPI_RULE_RECORDS_TRIPLES,  /* conditional records come in (bci, index, count) */
    IPI_RULE_RECORDS_PAIRS     /* virtual invoke, monitor, instanceof: (type, count) */
};

/* The first rule the entry breaks, or IPI_RULE_OK. kind must be valid. */
int ipi_rule_check_entry(int kind, const int64_t *frames, size_t frame_count,
                         const int64_t *records, size_t record_count);
/* English text of a rule, for error messages. */
const char *ipi_rule_message(int rule);
/* Whether the rule is about the ctx (else the records). */
int ipi_rule_is_ctx(int rule);

/* Record layout of a kind: values per group (1, 3 or 2), and which slot of
 * a group holds a type id (-1: none) and which the count. */
typedef struct ipi_kind_layout {
    int group;      /* values per group */
    int type_slot;  /* slot holding a type id, -1 if none */
    int count_slot; /* slot holding the count */
    int checks_methods; /* whether ctx method ids are references */
} ipi_kind_layout;

const ipi_kind_layout *ipi_kind_layout_of(int kind);

/* Counts combine by summing, saturating at the int64 limits (combining
 * entries, merging, canonical form, totals). */
static inline int64_t ipi_count_add(int64_t a, int64_t b)
{
    if (b > 0 && a > INT64_MAX - b)
        return INT64_MAX;
    if (b < 0 && a < INT64_MIN - b)
        return INT64_MIN;
    return a + b;
}

/* The section a top-level key names: an IPROF_KIND_* for the entry
 * sections (either spelling of the instanceof key), IPROF_SECTION_TYPES,
 * _METHODS or _VERSION, else IPROF_SECTION_UNKNOWN. The one list of the
 * keys the library interprets, for the reader, the model and the writer. */
int ipi_section_of(const char *key, size_t len);

/* Not a key of the 0.2.0 layout but a 1.x section key (ipi_legacy_section_of). */
#define IPI_SECTION_MODERN (-2)

/* The same for a document of the legacy 0.2.0 layout: hotnessPoints,
 * conditionalPoints, invokePoints and monitorsProfile name the kinds
 * they hold (call count, conditional, virtual invoke, monitor); a 1.x
 * section key is IPI_SECTION_MODERN; other keys are unknown. */
int ipi_legacy_section_of(const char *key, size_t len);
/* The 0.2.0 key of a kind, NULL for the kinds 0.2.0 lacks (sampling,
 * instanceof). */
const char *ipi_legacy_kind_key(int kind);

#endif
