/* The layouts a writer writes, side by side: what each spells its own way
 * (writer_internal.h, ipi_write_layout). Compact is the default, pretty
 * indents one element a line (IPROF_WRITE_PRETTY), and 0.2.0 is GraalVM's
 * layout of format 0.2.x, byte for byte as its writer printed it. */
#include "writer_internal.h"

#include "numfmt.h"
#include "rules.h"

#define PIECE(lit) { lit, sizeof(lit) - 1 }

static const ipi_write_layout compact = {
    .pretty = 0,
    .ctx_sep = '<',
    .late_instanceof = 1,
    .begin = PIECE("{\"version\":\""),
    .end = PIECE("}"),
    .key_open = PIECE("\""),
    .section_open = PIECE("\":["),
    .section_close = PIECE("]"),
    .empty_close = PIECE("]"),
    .unknown_colon = PIECE("\":"),
    .elem_indent = PIECE(""),
    .id_open = PIECE("{\"id\":"),
    .type_name = PIECE(",\"name\":\""),
    .method_name = PIECE(",\"name\":\""),
    .type_close = PIECE("\"}"),
    .entry_open = PIECE("{\"ctx\":\""),
    .sig_open = PIECE("\",\"signature\":["),
    .records_open = PIECE("\",\"records\":["),
    .tail_close = PIECE("]}"),
};

static const ipi_write_layout pretty = {
    .pretty = 1,
    .ctx_sep = '<',
    .late_instanceof = 1,
    .begin = PIECE("{\n  \"version\": \""),
    .end = PIECE("\n}\n"),
    .key_open = PIECE("\n  \""),
    .section_open = PIECE("\": ["),
    .section_close = PIECE("\n  ]"),
    .empty_close = PIECE("]"),
    .unknown_colon = PIECE("\": "),
    .elem_indent = PIECE("\n    "),
    .id_open = PIECE("{\"id\": "),
    .type_name = PIECE(", \"name\": \""),
    .method_name = PIECE(", \"name\": \""),
    .type_close = PIECE("\"}"),
    .entry_open = PIECE("{\"ctx\": \""),
    .sig_open = PIECE("\", \"signature\": ["),
    .records_open = PIECE("\", \"records\": ["),
    .tail_close = PIECE("]}"),
};

/* 0.2.0's pieces on an element's path, the widest of the three layouts
 * (each compact or pretty piece is no longer): ELEM_FIXED must hold an
 * element's fixed parts and the slack of its last piece. */
#define L020_INDENT "\n    "
#define L020_ID "{ \"id\": "
#define L020_TYPE_NAME ", \"typeName\": \""
#define L020_METHOD_NAME ", \"methodName\": \""
#define L020_ENTRY "{ \"methodBciList\": \""
#define L020_SIG "\", \"signature\": [ "
#define L020_RECORDS "\", \"records\": [ "
#define LEN(lit) (sizeof(lit) - 1)
_Static_assert(1 + LEN(L020_INDENT) + LEN(L020_ID) + IPI_I64_MAX_CHARS + LEN(L020_TYPE_NAME) +
                       IPI_PIECE_MAX <= ELEM_FIXED,
               "ELEM_FIXED holds a type's fixed parts");
_Static_assert(1 + LEN(L020_INDENT) + LEN(L020_ID) + IPI_I64_MAX_CHARS + LEN(L020_METHOD_NAME) +
                       LEN(L020_SIG) + IPI_PIECE_MAX <= ELEM_FIXED,
               "ELEM_FIXED holds a method's fixed parts");
_Static_assert(1 + LEN(L020_INDENT) + LEN(L020_ENTRY) + LEN(L020_RECORDS) + IPI_PIECE_MAX <=
                   ELEM_FIXED,
               "ELEM_FIXED holds an entry's fixed parts");

static const ipi_write_layout legacy_020 = {
    .pretty = 1,
    .ctx_sep = ',',
    .kind_key = ipi_legacy_kind_key,
    .section_of = ipi_legacy_section_of,
    .monitor_object = 1,
    .late_instanceof = 0,
    .begin = PIECE("{\n  \"version\": \""),
    .end = PIECE("\n}"), /* GraalVM's 0.2.0 files end without a newline */
    .key_open = PIECE("\n  \""),
    .section_open = PIECE("\": ["),
    .monitor_open = PIECE("\": {\n    \"records\": [ "),
    .section_close = PIECE("\n  ]"),
    .empty_close = PIECE("\n\n  ]"), /* an empty line in an empty section */
    .monitor_close = PIECE(" ] \n  }"),
    .unknown_colon = PIECE("\": "),
    .elem_indent = PIECE(L020_INDENT),
    .id_open = PIECE(L020_ID),
    .type_name = PIECE(L020_TYPE_NAME),
    .method_name = PIECE(L020_METHOD_NAME),
    .type_close = PIECE("\" }"),
    .entry_open = PIECE(L020_ENTRY),
    .sig_open = PIECE(L020_SIG), /* "[ 1, 2 ]", "[  ]" when empty */
    .records_open = PIECE(L020_RECORDS),
    .tail_close = PIECE(" ] }"),
};

const ipi_write_layout *ipi_write_layout_of(int legacy, int pretty_flag)
{
    return legacy ? &legacy_020 : pretty_flag ? &pretty : &compact;
}
