/* JSON output of the subcommands' --json reports and of the viewers'
 * files: one string escaper and one number writer for all of them. */
#include <math.h>
#include <stdlib.h>

#include "tool.h"

void json_string(FILE *out, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    putc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        unsigned char c = *p;
        switch (c) {
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\n': fputs("\\n", out); break;
        case '\r': fputs("\\r", out); break;
        case '\t': fputs("\\t", out); break;
        default:
            /* '<', '>' and '&' escaped too: the same text is then safe
             * inside an HTML <script> (the flame graph page). */
            if (c < 0x20 || c == '<' || c == '>' || c == '&' || c == 0x7f)
                fprintf(out, "\\u00%c%c", hex[c >> 4], hex[c & 15]);
            else
                putc(c, out);
        }
    }
    putc('"', out);
}

void json_double(FILE *out, double v)
{
    if (!isfinite(v)) {
        fputs("null", out);
        return;
    }
    char buf[32];
    for (int digits = 15; digits <= 17; digits++) {
        snprintf(buf, sizeof buf, "%.*g", digits, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    fputs(buf, out);
}
