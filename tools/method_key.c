/* Method keys (method_key.h): the same text for a profile's method and a
 * call tree's row. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "method_key.h"

void sb_add(sbuf *b, const char *s, size_t n)
{
    if (b->oom)
        return;
    if (n >= SIZE_MAX / 2 - b->len) { /* no size_t overflow below */
        b->oom = 1;
        return;
    }
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 64;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *p = realloc(b->s, cap);
        if (!p) {
            b->oom = 1;
            return;
        }
        b->s = p;
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

void sb_str(sbuf *b, const char *s)
{
    sb_add(b, s, strlen(s));
}

/* A malloc'd copy of the string, NULL when out of memory. */
char *sb_take(sbuf *b)
{
    char *s = b->oom ? NULL : b->s ? b->s : calloc(1, 1);
    if (!s)
        free(b->s);
    memset(b, 0, sizeof *b);
    return s;
}

static const char *primitive(char c)
{
    switch (c) {
    case 'Z': return "boolean";
    case 'B': return "byte";
    case 'C': return "char";
    case 'S': return "short";
    case 'I': return "int";
    case 'J': return "long";
    case 'F': return "float";
    case 'D': return "double";
    default: return NULL;
    }
}

/* A type name as the key holds it: profiles name arrays as Class.getName
 * does ("[I", "[[Ljava.lang.String;"), the CSV as Java source does ("int[]",
 * "java.lang.String[][]"): both become the latter. A hidden class is
 * "Outer$$Lambda/0x..." in a profile (Class.getName) and may be
 * "Outer$$Lambda+0x..." or ".0x..." in JVMCI's names: '/' and '+' become '.'. */
void key_type_name(sbuf *b, const char *t)
{
    size_t dims = 0, len = strlen(t);
    while (t[dims] == '[')
        dims++;
    const char *elem = t + dims;
    size_t elen = len - dims;
    if (dims && elen == 1 && primitive(*elem)) {
        elem = primitive(*elem);
        elen = strlen(elem);
    } else if (dims && elen >= 2 && elem[0] == 'L' && elem[elen - 1] == ';') {
        elem++;
        elen -= 2;
    }
    for (size_t i = 0; i < elen; i++)
        sb_add(b, elem[i] == '/' || elem[i] == '+' ? "." : elem + i, 1);
    for (size_t i = 0; i < dims; i++)
        sb_str(b, "[]");
}

int method_key(const char *type, const char *name, const char *params, const char *ret,
               method_key_parts *out)
{
    sbuf k = {0}, c = {0}, n = {0};
    key_type_name(&c, type);
    sb_str(&n, name);
    sb_str(&n, "(");
    sb_str(&n, params);
    sb_str(&n, ")");
    sb_add(&k, c.s ? c.s : "", c.len);
    sb_str(&k, ".");
    sb_add(&k, n.s ? n.s : "", n.len);
    sb_str(&k, ":");
    key_type_name(&k, ret);
    out->key = sb_take(&k);
    out->cls = sb_take(&c);
    out->name = sb_take(&n);
    if (out->key && out->cls && out->name)
        return 0;
    method_key_free(out);
    return -1;
}

void method_key_free(method_key_parts *p)
{
    free(p->key);
    free(p->cls);
    free(p->name);
    p->key = p->cls = p->name = NULL;
}
