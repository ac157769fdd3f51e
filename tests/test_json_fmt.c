/* Unit tests of the writer's value formatting (lib/write/json_fmt.h):
 * escaping against a byte-at-a-time reference, at every length and every
 * position of a byte that needs an escape (the 16-byte, 8-byte and tail
 * paths each see them), integer arrays with their separators, and the
 * pieces of syntax each layout spells (lib/write/write_layout.c). */
#include "check.h"

#include "json_fmt.h"
#include "writer_internal.h"

/* The reference: one byte at a time, as RFC 8259 allows (short escapes
 * where JSON has them, \u00XX for the other control characters). */
static size_t reference_escape(char *out, const unsigned char *s, size_t len)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = s[i];
        const char *short_esc = c == '"' ? "\\\"" : c == '\\' ? "\\\\" : c == '\b' ? "\\b"
                              : c == '\f' ? "\\f" : c == '\n' ? "\\n" : c == '\r' ? "\\r"
                              : c == '\t' ? "\\t" : NULL;
        if (short_esc)
            n += (size_t)sprintf(out + n, "%s", short_esc);
        else if (c < 0x20)
            n += (size_t)sprintf(out + n, "\\u%04x", c);
        else
            out[n++] = (char)c;
    }
    return n;
}

static void check_escape(const unsigned char *s, size_t len)
{
    char got[64 * IPI_ESC_MAX + 8], want[64 * IPI_ESC_MAX + 8];
    memset(got, '#', sizeof got);
    size_t n = (size_t)(ipi_json_escape_into(got, s, len) - got);
    size_t m = reference_escape(want, s, len);
    CHECK_EQ_MEM(got, n, want, m);
    CHECK(n <= IPI_ESC_MAX * len);
    CHECK(got[n] == '#'); /* nothing written past the end, even by wide stores */
}

static void test_escape_every_position(void)
{
    static const unsigned char specials[] = {'"', '\\', '\n', '\t', 0x01, 0x1f, '\b', '\f', '\r'};
    unsigned char s[64] = {0};
    for (size_t len = 0; len <= 40; len++) {
        for (size_t i = 0; i < len; i++)
            s[i] = (unsigned char)('a' + i % 26);
        check_escape(s, len); /* nothing to escape */
        for (size_t at = 0; at < len; at++)
            for (size_t k = 0; k < sizeof specials; k++) {
                unsigned char keep = s[at];
                s[at] = specials[k];
                check_escape(s, len);
                s[at] = keep;
            }
    }
}

static void test_escape_passes_utf8_and_high_bytes(void)
{
    /* Bytes >= 0x80 are UTF-8 and pass through untouched; 0x7f is no
     * control character for JSON. */
    unsigned char s[40];
    for (size_t i = 0; i < sizeof s; i++)
        s[i] = (unsigned char)(0x7f + i * 3);
    for (size_t len = 0; len <= sizeof s; len++)
        check_escape(s, len);
    const char *name = "caf\xc3\xa9.<init>\x1f\"";
    char out[64];
    size_t n = (size_t)(ipi_json_escape_into(out, (const unsigned char *)name, strlen(name)) - out);
    CHECK_EQ_MEM(out, n, "caf\xc3\xa9.<init>\\u001f\\\"", 20);
}

static void test_values(void)
{
    static const int64_t v[] = {0, -1, INT64_MAX, INT64_MIN, 42};
    char out[5 * IPI_VALUE_MAX];
    size_t n = (size_t)(ipi_json_values_into(out, v, 5, 0, 1) - out);
    static const char compact[] = "0,-1,9223372036854775807,-9223372036854775808,42";
    CHECK_EQ_MEM(out, n, compact, sizeof compact - 1);
    n = (size_t)(ipi_json_values_into(out, v, 2, 1, 1) - out);
    CHECK_EQ_MEM(out, n, "0, -1", 5);
    /* A continued chunk starts with its separator. */
    n = (size_t)(ipi_json_values_into(out, v + 4, 1, 0, 0) - out);
    CHECK_EQ_MEM(out, n, ",42", 3);
    n = (size_t)(ipi_json_values_into(out, v + 4, 1, 1, 0) - out);
    CHECK_EQ_MEM(out, n, ", 42", 4);
    CHECK(ipi_json_values_into(out, v, 0, 0, 1) == out);
    CHECK(5 * IPI_VALUE_MAX >= sizeof compact - 1 + 4);
}

/* The pieces a layout spells its own way (writer_internal.h): copied as
 * one block, advanced by their length, the rest overwritten next. */
static void test_pieces(void)
{
    char out[4 * IPI_PIECE_MAX], *p = out;
    memset(out, 'x', sizeof out);
    const ipi_write_layout *compact = ipi_write_layout_of(0, 0);
    const ipi_write_layout *legacy = ipi_write_layout_of(1, 0);
    PUT_PIECE(p, compact->id_open);
    PUT_PIECE(p, legacy->elem_indent);
    PUT_PIECE(p, compact->elem_indent); /* empty: nothing advanced */
    PUT_PIECE(p, legacy->type_close);
    CHECK_EQ_MEM(out, (size_t)(p - out), "{\"id\":\n    \" }", 14);
    /* 0.2.0 has one layout, GraalVM's pretty printing, asked for or not. */
    CHECK(ipi_write_layout_of(1, 1) == legacy);
    CHECK(legacy->pretty && legacy->monitor_object && !legacy->late_instanceof);
    CHECK(ipi_write_layout_of(0, 1) != compact && ipi_write_layout_of(0, 1)->pretty);
    CHECK(!compact->pretty && !compact->monitor_object && !compact->kind_key);
    CHECK_EQ_STR(legacy->kind_key(IPROF_KIND_CALL_COUNT), "hotnessPoints");
    CHECK_EQ_INT(legacy->ctx_sep, ',');
    CHECK_EQ_INT(compact->ctx_sep, '<');
}

int main(void)
{
    RUN(test_escape_every_position);
    RUN(test_escape_passes_utf8_and_high_bytes);
    RUN(test_values);
    RUN(test_pieces);
    return check_done();
}
