/*
 * What a model keeps of its file beyond the profile: top-level keys the
 * library does not interpret (a fork's "ceConditionalProfilesV2",
 * GraalVM's unpublished "virtualInvokeMethodProfiles"), each with its raw
 * JSON and the section it followed, and the spelling of the instanceof
 * key. The writer puts them back where they were, so nothing is lost.
 *
 * Operations that renumber ids or combine files cannot know what ids
 * inside such a value mean, so they keep only values that hold no ids
 * ([], {} or a scalar, equal wherever the key occurs) and refuse the rest
 * unless asked to drop them.
 */
#include <stdio.h>

#include <iprof/edit.h>

#include "json.h"
#include "model.h"
#include "rules.h"

/* ---- storage ------------------------------------------------------------ */

int ipi_unknown_push(iprof_model *m, const char *key, size_t key_len, const char *json,
                     size_t json_len, int after)
{
    ipi_layout_extras *x = &m->extras;
    if (json_len > SIZE_MAX / 2 || key_len > SIZE_MAX / 2 - json_len - 2)
        return IPROF_ENOMEM;
    if (x->count == x->cap &&
        ipi_grow(&m->alloc, (void **)&x->items, &x->cap, x->count + 1, sizeof *x->items))
        return IPROF_ENOMEM;
    size_t size = key_len + json_len + 2;
    char *block = ipi_malloc(&m->alloc, size);
    if (!block)
        return IPROF_ENOMEM;
    memcpy(block, key, key_len);
    block[key_len] = '\0';
    memcpy(block + key_len + 1, json, json_len);
    block[key_len + 1 + json_len] = '\0';
    x->items[x->count++] = (ipi_unknown){block, key_len, block + key_len + 1, json_len, after,
                                         size};
    return IPROF_OK;
}

static void unknown_free(iprof_model *m, ipi_unknown *u)
{
    ipi_free(&m->alloc, (void *)u->key, u->size);
}

void ipi_unknown_free_all(iprof_model *m)
{
    ipi_layout_extras *x = &m->extras;
    for (size_t i = 0; i < x->count; i++)
        unknown_free(m, &x->items[i]);
    ipi_free(&m->alloc, x->items, x->cap * sizeof *x->items);
    x->items = NULL;
    x->count = x->cap = 0;
}

void ipi_unknown_truncate(iprof_model *m, size_t count)
{
    ipi_layout_extras *x = &m->extras;
    while (x->count > count)
        unknown_free(m, &x->items[--x->count]);
}

/* ---- public access ------------------------------------------------------ */

IPROF_API size_t iprof_model_unknown_count(const iprof_model *model)
{
    return model ? model->extras.count : 0;
}

IPROF_API int iprof_model_unknown_at(const iprof_model *model, size_t index, const char **key,
                                     size_t *key_len, const char **json, size_t *json_len)
{
    if (!model || !key || !json)
        return IPROF_EINVAL;
    if (index >= model->extras.count)
        return IPROF_ENOTFOUND;
    const ipi_unknown *u = &model->extras.items[index];
    *key = u->key;
    *json = u->json;
    if (key_len)
        *key_len = u->key_len;
    if (json_len)
        *json_len = u->json_len;
    return IPROF_OK;
}

/* Whether a top-level key is one the library interprets (either spelling
 * of the instanceof key included). */
int ipi_is_known_key(const char *key, size_t len)
{
    return ipi_section_of(key, len) != IPROF_SECTION_UNKNOWN;
}

/* How much of a key (not NUL-terminated) a message shows. */
static int shown(size_t key_len)
{
    return key_len > 64 ? 64 : (int)key_len;
}

IPROF_API int iprof_model_add_unknown(iprof_model *model, const char *key, size_t key_len,
                                      const char *json, size_t json_len)
{
    if (!model)
        return IPROF_EINVAL;
    ipi_errbuf_clear(&model->error);
    if (!key || !json)
        return ipi_model_fail(model, IPROF_EINVAL, "the key or the JSON is NULL");
    if (ipi_is_known_key(key, key_len))
        return ipi_model_fail(model, IPROF_EINVAL,
                              "\"%.*s\" is a key the library interprets, not an unknown one",
                              shown(key_len), key);
    if (!ipi_utf8_valid(key, key_len))
        return ipi_model_fail(model, IPROF_EINVAL, "the key is not valid UTF-8");
    int rc = ipi_json_check_one(&model->alloc, json, json_len);
    if (rc == IPROF_ESYNTAX)
        return ipi_model_fail(model, rc, "the value of \"%.*s\" is not one JSON value",
                              shown(key_len), key);
    if (!rc)
        rc = ipi_unknown_push(model, key, key_len, json, json_len, IPI_AFTER_END);
    return rc ? ipi_model_fail(model, rc, "%s", iprof_status_string(rc)) : IPROF_OK;
}

IPROF_API int iprof_model_remove_unknown(iprof_model *model, const char *key, size_t key_len)
{
    if (!model)
        return IPROF_EINVAL;
    ipi_errbuf_clear(&model->error);
    if (!key && key_len)
        return ipi_model_fail(model, IPROF_EINVAL, "the key is NULL with a length of %zu",
                              key_len);
    if (!key) { /* every key, as iprof_model_clear_unknown(): none is not an error */
        ipi_unknown_free_all(model);
        return IPROF_OK;
    }
    ipi_layout_extras *x = &model->extras;
    size_t kept = 0;
    for (size_t i = 0; i < x->count; i++) {
        ipi_unknown *u = &x->items[i];
        if (u->key_len == key_len && memcmp(u->key, key, key_len) == 0)
            unknown_free(model, u);
        else
            x->items[kept++] = *u;
    }
    int found = kept < x->count;
    x->count = kept;
    return found ? IPROF_OK
                 : ipi_model_fail(model, IPROF_ENOTFOUND, "no unknown key \"%.*s\"",
                                  shown(key_len), key);
}

IPROF_API int iprof_model_instanceof_key(const iprof_model *model)
{
    return model ? model->extras.instanceof_key : IPROF_INSTANCEOF_KEY_AUTO;
}

IPROF_API int iprof_model_set_instanceof_key(iprof_model *model, int spelling)
{
    if (!model)
        return IPROF_EINVAL;
    ipi_errbuf_clear(&model->error);
    if (spelling < IPROF_INSTANCEOF_KEY_AUTO || spelling > IPROF_INSTANCEOF_KEY_CAMEL)
        return ipi_model_fail(model, IPROF_EINVAL, "unknown instanceof spelling %d", spelling);
    model->extras.instanceof_key = spelling;
    return IPROF_OK;
}

/* ---- combining ---------------------------------------------------------- */

/* The value without the whitespace around it. */
static const char *trimmed(const ipi_unknown *u, size_t *len)
{
    const char *p = ipi_json_skip_ws(u->json, u->json + u->json_len);
    const char *e = u->json + u->json_len;
    while (e > p && (e[-1] == ' ' || e[-1] == '\n' || e[-1] == '\r' || e[-1] == '\t'))
        e--;
    *len = (size_t)(e - p);
    return p;
}

int ipi_unknown_is_plain(const ipi_unknown *u)
{
    size_t n;
    const char *p = trimmed(u, &n);
    if (n == 0)
        return 0;
    if (*p != '[' && *p != '{')
        return 1; /* a string, number, true, false or null */
    const char *q = ipi_json_skip_ws(p + 1, p + n);
    return q == p + n - 1; /* [] or {} with nothing inside */
}

static int same_value(const ipi_unknown *a, const ipi_unknown *b)
{
    size_t na, nb;
    const char *pa = trimmed(a, &na), *pb = trimmed(b, &nb);
    return na == nb && memcmp(pa, pb, na) == 0;
}

static const ipi_unknown *find_key(const iprof_model *m, const ipi_unknown *like)
{
    for (size_t i = 0; i < m->extras.count; i++) {
        const ipi_unknown *u = &m->extras.items[i];
        if (u->key_len == like->key_len && memcmp(u->key, like->key, u->key_len) == 0)
            return u;
    }
    return NULL;
}

/* Refuse m's (or src's) unknown keys that cannot be combined. */
static int check_side(iprof_model *m, const iprof_model *side, const char *whose)
{
    for (size_t i = 0; i < side->extras.count; i++) {
        const ipi_unknown *u = &side->extras.items[i];
        if (!ipi_unknown_is_plain(u))
            return ipi_model_fail(m, IPROF_ESCHEMA,
                                  "unknown key \"%.*s%s\" of %s holds data whose ids cannot "
                                  "be renumbered or combined",
                                  ipi_excerpt(u->key, u->key_len, 64), u->key,
                                  IPI_CUT(u->key_len, 64), whose);
        const ipi_unknown *other = find_key(side, u);
        if (other != u && !same_value(other, u))
            return ipi_model_fail(m, IPROF_ESCHEMA,
                                  "unknown key \"%.*s%s\" of %s occurs twice with different "
                                  "values",
                                  ipi_excerpt(u->key, u->key_len, 64), u->key,
                                  IPI_CUT(u->key_len, 64), whose);
    }
    return IPROF_OK;
}

int ipi_unknown_check_keys(iprof_model *report, const iprof_model *m)
{
    return check_side(report, m, "the model");
}

int ipi_unknown_check_combine(iprof_model *m, const iprof_model *src)
{
    int rc = check_side(m, m, src ? "the model merged into" : "the model");
    if (rc || !src || (rc = check_side(m, src, "the model merged from")))
        return rc;
    for (size_t i = 0; i < src->extras.count; i++) {
        const ipi_unknown *u = &src->extras.items[i], *mine = find_key(m, u);
        if (mine && !same_value(mine, u))
            return ipi_model_fail(m, IPROF_ESCHEMA,
                                  "unknown key \"%.*s%s\" has different values in the two "
                                  "models",
                                  ipi_excerpt(u->key, u->key_len, 64), u->key,
                                  IPI_CUT(u->key_len, 64));
    }
    return IPROF_OK;
}

int ipi_unknown_take(iprof_model *m, const iprof_model *src, int drop)
{
    int theirs = src->extras.instanceof_key, *mine = &m->extras.instanceof_key;
    if (*mine == IPROF_INSTANCEOF_KEY_AUTO)
        *mine = theirs;
    else if (theirs != IPROF_INSTANCEOF_KEY_AUTO && theirs != *mine)
        *mine = IPROF_INSTANCEOF_KEY_CAMEL; /* inputs disagree: GraalVM's spelling */
    if (drop) {
        ipi_unknown_free_all(m);
    } else {
        for (size_t i = 0; i < src->extras.count; i++) {
            const ipi_unknown *u = &src->extras.items[i];
            if (find_key(m, u))
                continue;
            int rc = ipi_unknown_push(m, u->key, u->key_len, u->json, u->json_len, u->after);
            if (rc)
                return rc;
        }
    }
    /* Last, as nothing fails after it: what src's inputs held and src
     * lacks, m lacks now too. */
    ipi_unknown_note_unread(m, src->extras.unread, src->extras.unread_first);
    return IPROF_OK;
}

void ipi_unknown_note_unread(iprof_model *m, size_t count, const char *first)
{
    ipi_layout_extras *x = &m->extras;
    if (!count)
        return;
    if (!x->unread)
        snprintf(x->unread_first, sizeof x->unread_first, "%s", first);
    x->unread = count > SIZE_MAX - x->unread ? SIZE_MAX : x->unread + count;
}

size_t iprof_model_unread_count(const iprof_model *model, const char **first)
{
    if (first)
        *first = model && model->extras.unread ? model->extras.unread_first : NULL;
    return model ? model->extras.unread : 0;
}
