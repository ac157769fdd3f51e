/* Method keys of iprof fit: "Type.name(param,...):Return", written the
 * same way from a profile's signature and from a Native Image call tree
 * row, so that equal keys mean the same method.
 *
 * Type names are Java source names: a profile names arrays as
 * Class.getName does ("[I", "[[Ljava.lang.String;"), the call tree as Java
 * source does ("int[]", "java.lang.String[][]"). A hidden class is
 * "Outer$$Lambda/0x..." in a profile (Class.getName) and may hold '+' or
 * '.' there in JVMCI's names: '/' and '+' become '.'. The return type is
 * part of the key: a bridge method shares name and parameters with the
 * method it bridges. */
#ifndef IPROF_TOOL_METHOD_KEY_H
#define IPROF_TOOL_METHOD_KEY_H

#include <stddef.h>

/* A growing string; on allocation failure it stops growing and sb_take
 * returns NULL. */
typedef struct sbuf {
    char *s;
    size_t len, cap;
    int oom;
} sbuf;

void sb_add(sbuf *b, const char *s, size_t n);
void sb_str(sbuf *b, const char *s);
/* The text (malloc'd, "" when empty), NULL when out of memory; @p b is
 * empty again. */
char *sb_take(sbuf *b);

/* Append type name @p t as a key holds it (above). */
void key_type_name(sbuf *b, const char *t);

typedef struct method_key_parts {
    char *key;  /* "Type.name(params):Return" */
    char *cls;  /* "Type" */
    char *name; /* "name(params)" */
} method_key_parts;

/* The key of Type.name(params):ret into @p out (three malloc'd strings);
 * @p params is the parameter list already written as a key holds it
 * ("int,java.lang.String", key_type_name for each). 0, or -1 when out of
 * memory (nothing allocated). */
int method_key(const char *type, const char *name, const char *params, const char *ret,
               method_key_parts *out);
void method_key_free(method_key_parts *p);

#endif /* IPROF_TOOL_METHOD_KEY_H */
