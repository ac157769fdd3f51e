/* Format versions: parsing "MAJOR.MINOR.PATCH", deciding what this library
 * does with a version, and each version's top-level layout. */
#ifndef IPI_VERSION_H
#define IPI_VERSION_H

#include <iprof/iprof.h>

typedef struct ipi_fmtver {
    int64_t major, minor, patch;
} ipi_fmtver;

/* What a version means to this library. */
enum ipi_version_class {
    IPI_VERSION_KNOWN = 0,  /* 0.4.0, 1.0.0, 1.1.0 */
    IPI_VERSION_COMPAT = 1, /* another 0.x (x >= 3) or 1.x: same structure, a warning */
    IPI_VERSION_LEGACY = 2, /* 0.0, 0.1: before the 0.2.0 layout, unsupported */
    IPI_VERSION_FUTURE = 3, /* major >= 2: unsupported */
    IPI_VERSION_LEGACY_02 = 4 /* 0.2.x: the legacy 0.2.0 layout (0.2.0 known, others a warning) */
};

/* Parse digits '.' digits '.' digits; 0 or IPROF_EVERSION if malformed. */
int ipi_version_parse(const char *s, size_t len, ipi_fmtver *out);
int ipi_version_classify(const ipi_fmtver *v);
/* Whether the version has instanceofProfiles (1.1 and later 1.x). */
int ipi_version_has_instanceof(const ipi_fmtver *v);
/* Whether the version is written in the legacy 0.2.0 layout (0.2.x):
 * keys typeName, methodName, hotnessPoints, conditionalPoints,
 * invokePoints with methodBciList joined by ',', one monitorsProfile
 * object; GraalVM's pretty printing. */
int ipi_version_is_legacy(const ipi_fmtver *v);

/* The order in which the version's writer emits the entry sections: fills
 * kinds[] and returns how many (5, or 6 with instanceof; 4 for 0.2.x, which
 * has no sampling and no instanceof section). */
size_t ipi_version_layout(const ipi_fmtver *v, int kinds[IPROF_KIND_COUNT]);

#endif
