/* The model: creation, version, types, methods and their lookups. */
#include <iprof/edit.h>

#include "model.h"

#include "hash.h"
#include "json.h"
#include "numfmt.h"
#include "version.h"

/* ---- lifetime ----------------------------------------------------------- */

IPROF_API int iprof_model_new(iprof_model **out, const iprof_allocator *allocator)
{
    if (!out)
        return IPROF_EINVAL;
    *out = NULL;
    iprof_allocator a;
    ipi_allocator_init(&a, allocator);
    iprof_model *m = ipi_malloc(&a, sizeof *m);
    if (!m)
        return IPROF_ENOMEM;
    memset(m, 0, sizeof *m);
    m->alloc = a;
    ipi_errbuf_clear(&m->error);
    ipi_arena_init(&m->arena, &m->alloc);
    ipi_intern_init(&m->names, &m->alloc);
    ipi_pool_init(&m->method_pool, &m->alloc);
    m->version = IPROF_FORMAT_LATEST; /* static: a new model allocates nothing more */
    m->refs_checked = 1;               /* nothing to refer to */
    m->max_entries = IPI_MAX_ENTRIES;
    ipi_idpos_init(&m->type_ids);
    ipi_idpos_init(&m->method_ids);
    ipi_context_init(m);
    for (int i = 0; i < IPI_IX_COUNT; i++)
        atomic_init(&m->index[i], NULL);
    for (int k = 0; k < IPROF_KIND_COUNT; k++)
        atomic_init(&m->columns[k], NULL);
    *out = m;
    return IPROF_OK;
}

IPROF_API void iprof_model_free(iprof_model *model)
{
    if (!model)
        return;
    const iprof_allocator *a = &model->alloc;
    ipi_entries_free(model);
    ipi_unknown_free_all(model);
    ipi_context_free(model);
    ipi_index_free_all(model);
    ipi_idpos_free(&model->method_ids, a);
    ipi_idpos_free(&model->type_ids, a);
    ipi_free(a, model->methods, model->method_cap * sizeof *model->methods);
    ipi_pool_free(&model->method_pool);
    ipi_free(a, model->types, model->type_cap * sizeof *model->types);
    ipi_intern_free(&model->names);
    ipi_arena_free(&model->arena);
    iprof_allocator copy = model->alloc; /* the model holds its own allocator */
    ipi_free(&copy, model, sizeof *model);
}

/* ---- version ------------------------------------------------------------ */

IPROF_API const char *iprof_model_version(const iprof_model *model)
{
    return model ? model->version : NULL;
}

int64_t ipi_model_max_id(const iprof_model *m, int types)
{
    /* Every id in the list is a key of its index and every key an id in
     * the list (list_remove, list_rebuild_ids and the journal keep it so):
     * the index's largest key, without reading a type or method. */
    return types ? ipi_idpos_max(&m->type_ids, m->type_count)
                 : ipi_idpos_max(&m->method_ids, m->method_count);
}

int ipi_model_intern(iprof_model *m, const char *s, size_t len, uint64_t h, const ipi_str **out)
{
    int rc = ipi_intern_hashed(&m->names, s, len, h, out);
    if (rc == IPROF_ELIMIT && len <= IPI_STR_MAX)
        return ipi_model_fail(m, rc,
                              "more than %zu chunks of names (of up to %zu KiB each): the model "
                              "refers to names with 32 bits",
                              m->names.pool.max_chunks, IPI_POOL_CHUNK_MAX >> 10);
    return rc;
}

int ipi_model_store_version(iprof_model *m, const char *version, size_t len)
{
    if (len > IPI_STR_MAX)
        return IPROF_ELIMIT;
    const ipi_str *s;
    int rc = ipi_model_intern(m, version, len, ipi_str_hash_bytes(version, len), &s);
    if (rc)
        return rc;
    m->version = s->s;
    m->version_set = 1;
    return IPROF_OK;
}

IPROF_API int iprof_model_set_version(iprof_model *model, const char *version)
{
    if (!model)
        return IPROF_EINVAL;
    ipi_errbuf_clear(&model->error);
    if (!version)
        return ipi_model_fail(model, IPROF_EINVAL, "the version is NULL");
    size_t len = strlen(version);
    ipi_fmtver v;
    if (ipi_version_parse(version, len, &v) != IPROF_OK)
        return ipi_model_fail(model, IPROF_EVERSION, "malformed format version \"%.64s\"",
                              version);
    int cls = ipi_version_classify(&v);
    if (cls == IPI_VERSION_LEGACY || cls == IPI_VERSION_FUTURE)
        return ipi_model_fail(model, IPROF_EVERSION,
                              "format version %.64s cannot be written (before 0.2 or after 1.x)",
                              version);
    int rc = ipi_model_store_version(model, version, len);
    if (rc == IPROF_ELIMIT && ipi_errbuf_get(&model->error)) /* the names' limit: said */
        return rc;
    return rc ? ipi_model_fail(model, rc, "%s", rc == IPROF_ELIMIT ? "the version is too long"
                                                                   : "out of memory")
              : IPROF_OK;
}

/* ---- helpers ------------------------------------------------------------ */

size_t ipi_method_sig_missing(const iprof_model *m, const int64_t *sig, size_t sig_len)
{
    size_t i = 0;
    while (i < sig_len && ipi_model_type_by_id(m, sig[i]))
        i++;
    return i;
}

int ipi_method_check_sig(iprof_model *report, const iprof_model *m, int64_t id,
                         const int64_t *sig, size_t sig_len, const char *whose)
{
    size_t i = ipi_method_sig_missing(m, sig, sig_len);
    if (i == sig_len)
        return IPROF_OK;
    ipi_subject about = {-1, NULL, 0, &sig[i], &id};
    return ipi_model_fail_about(report, IPROF_EDANGLING, &about,
                                "method %lld: signature type id %lld (signature[%zu]) is not "
                                "defined in %s",
                                (long long)id, (long long)sig[i], i, whose);
}

/* Make room for one more item (a pointer or a reference) in a list (no
 * aliasing tricks on the typed pointer: ipi_grow works on a void *). */
static int list_reserve(iprof_model *m, void *list_ptr, size_t *cap, size_t count, size_t size)
{
    void *p;
    memcpy(&p, list_ptr, sizeof p);
    int rc = ipi_grow(&m->alloc, &p, cap, count + 1, size);
    memcpy(list_ptr, &p, sizeof p);
    return rc;
}

/* Types and methods are kept alike: a list in insertion order and an id
 * index to the first holder of each id (a lenient load may hold duplicate
 * ids; idpos.h). Both structs begin with their int64_t id, so one set of
 * functions serves both through a pointer to that first member (C11
 * 6.7.2.1p15). */
typedef struct id_list {
    void *items; /* iprof_type ** or the methods' uint32_t references */
    size_t item_size;
    size_t *count;
    ipi_idpos *ids;
    ipi_idpos_id_fn id_at; /* the id at a position, of id_list: */
    const void *id_list;   /* the type list, or the model for methods */
} id_list;

static int64_t item_id(const void *x)
{
    return *(const int64_t *)x;
}

/* The id at position i of the types (ipi_idpos_id_fn). */
static int64_t type_id_at(const void *items, size_t i)
{
    void *x;
    memcpy(&x, (const char *)items + i * sizeof x, sizeof x);
    return item_id(x);
}

/* The id at position i of a model's methods (ipi_idpos_id_fn). */
static int64_t method_id_at(const void *model, size_t i)
{
    return ipi_model_method(model, i)->id;
}

/* Remove @p gone, the first holder of its id, and index the list again
 * (the next holder of the id, if any, becomes its first). */
static void list_remove(id_list l, const void *gone)
{
    int64_t id = item_id(gone);
    size_t pos = (size_t)ipi_idpos_get(l.ids, id);
    ipi_array_remove(l.items, l.count, pos, l.item_size);
    ipi_idpos_removed(l.ids, *l.count, pos, id, l.id_at, l.id_list);
}

/* Index every id's first holder again (after retain). Never allocates. */
static void list_rebuild_ids(id_list l)
{
    ipi_idpos_rebuild(l.ids, *l.count, l.id_at, l.id_list);
}

static id_list type_list(iprof_model *m)
{
    return (id_list){m->types, sizeof *m->types, &m->type_count, &m->type_ids, type_id_at,
                     m->types};
}

static id_list method_list(iprof_model *m)
{
    return (id_list){m->methods, sizeof *m->methods, &m->method_count, &m->method_ids,
                     method_id_at, m};
}

void ipi_model_truncate(iprof_model *m, size_t types, size_t methods)
{
    ipi_idpos_truncate(&m->type_ids, m->type_count, types, type_id_at, m->types);
    ipi_idpos_truncate(&m->method_ids, m->method_count, methods, method_id_at, m);
    m->type_count = types;
    m->method_count = methods;
}

void ipi_model_shrink(iprof_model *m)
{
    const iprof_allocator *a = &m->alloc;
    ipi_shrink_array(a, &m->types, &m->type_cap, m->type_count, sizeof *m->types);
    ipi_shrink_array(a, &m->methods, &m->method_cap, m->method_count, sizeof *m->methods);
    ipi_idpos_shrink(&m->type_ids, a);
    ipi_idpos_shrink(&m->method_ids, a);
    for (int k = 0; k < IPROF_KIND_COUNT; k++) {
        ipi_entry_list *l = &m->entries[k];
        ipi_shrink_array(a, &l->items, &l->cap, l->count, sizeof *l->items);
    }
}

/* Why a push failed, for the public add calls. */
static const char *push_failure(int rc)
{
    return rc == IPROF_ELIMIT ? "the model holds the most types or methods it can (4294967294)"
                              : "out of memory";
}

/* ---- types -------------------------------------------------------------- */

static const iprof_type *type_by_str(const iprof_model *m, const ipi_str *name)
{
    return ipi_find_type_by_name(m, name);
}

IPROF_API size_t iprof_model_type_count(const iprof_model *model)
{
    return model ? model->type_count : 0;
}

IPROF_API const iprof_type *iprof_model_type_at(const iprof_model *model, size_t index)
{
    return model && index < model->type_count ? model->types[index] : NULL;
}

IPROF_API const iprof_type *iprof_model_type_by_id(const iprof_model *model, int64_t id)
{
    return model ? ipi_model_type_by_id(model, id) : NULL;
}

IPROF_API const iprof_type *iprof_model_type_by_name(const iprof_model *model,
                                                     const char *name, size_t name_len)
{
    if (!model || (!name && name_len))
        return NULL;
    const ipi_str *s = ipi_intern_find(&model->names, name ? name : "", name_len);
    return s ? type_by_str(model, s) : NULL;
}

IPROF_API int64_t iprof_type_id(const iprof_type *type)
{
    return type ? type->id : 0;
}

IPROF_API const char *iprof_type_name(const iprof_type *type, size_t *len)
{
    if (len)
        *len = type ? type->name->len : 0;
    return type ? type->name->s : NULL;
}

int ipi_model_push_type(iprof_model *m, int64_t id, const char *name, size_t name_len,
                        const iprof_type **out)
{
    if (name_len > IPI_STR_MAX)
        return IPROF_ELIMIT;
    const ipi_str *s;
    name = name_len ? name : "";
    int rc = ipi_model_intern(m, name, name_len, ipi_str_hash_bytes(name, name_len), &s);
    return rc ? rc : ipi_model_push_type_str(m, id, s, out);
}

int ipi_model_push_type_str(iprof_model *m, int64_t id, const ipi_str *s,
                            const iprof_type **out)
{
    /* The name index is kept up to date only once something built it. */
    ipi_rtab *names = ipi_index_built(m, IPI_IX_TYPE_NAMES);
    int first_name = names && type_by_str(m, s) == NULL;
    /* Reserve everything first so that nothing changes on failure. */
    int rc = ipi_idpos_reserve(&m->type_ids, &m->alloc, m->type_count, id);
    if (rc)
        return rc;
    if (list_reserve(m, &m->types, &m->type_cap, m->type_count, sizeof *m->types))
        return IPROF_ENOMEM;
    if (first_name && (rc = ipi_rtab_reserve(names, &m->alloc, 1)))
        return rc;
    iprof_type *t = ipi_arena_alloc(&m->arena, sizeof *t);
    if (!t)
        return IPROF_ENOMEM;
    t->id = id;
    t->name = s;
    ipi_idpos_put_reserved(&m->type_ids, m->type_count, id); /* reserved: cannot fail */
    m->types[m->type_count++] = t;
    if (first_name)
        ipi_rtab_put(names, s->hash, (uint32_t)m->type_count); /* reserved; position + 1 */
    ipi_model_changed(m, IPI_CHANGED_TYPES_ADDED, -1);
    if (out)
        *out = t;
    return IPROF_OK;
}

IPROF_API int iprof_model_add_type(iprof_model *model, int64_t id, const char *name,
                                   size_t name_len, const iprof_type **out)
{
    if (!model)
        return IPROF_EINVAL;
    ipi_errbuf_clear(&model->error);
    ipi_subject about = {-1, NULL, 0, &id, NULL};
    if (!name && name_len)
        return ipi_model_fail_about(model, IPROF_EINVAL, &about, "type %lld: the name is NULL",
                                    (long long)id);
    if (name_len > IPI_STR_MAX)
        return ipi_model_fail_about(model, IPROF_ELIMIT, &about,
                                    "type %lld: the name is longer than the limit of %zu bytes",
                                    (long long)id, IPI_STR_MAX);
    if (name_len && !ipi_utf8_valid(name, name_len))
        return ipi_model_fail_about(model, IPROF_EINVAL, &about,
                                    "type %lld: the name is not valid UTF-8", (long long)id);
    if (ipi_model_type_by_id(model, id))
        return ipi_model_fail_about(model, IPROF_EINVAL, &about, "type id %lld is taken",
                                    (long long)id);
    int rc = ipi_model_push_type(model, id, name, name_len, out);
    if (rc && !(rc == IPROF_ELIMIT && ipi_errbuf_get(&model->error))) /* the names' limit: said */
        ipi_model_fail_about(model, rc, &about, "%s", push_failure(rc));
    return rc;
}

IPROF_API int iprof_model_remove_type(iprof_model *model, int64_t id)
{
    if (!model)
        return IPROF_EINVAL;
    ipi_errbuf_clear(&model->error);
    ipi_subject about = {-1, NULL, 0, &id, NULL};
    iprof_type *t = ipi_model_type_by_id(model, id);
    if (!t)
        return ipi_model_fail_about(model, IPROF_ENOTFOUND, &about, "no type with id %lld",
                                    (long long)id);
    list_remove(type_list(model), t);
    /* Methods and records may still name it. */
    ipi_model_changed(model, IPI_CHANGED_TYPES_REMOVED | IPI_CHANGED_UNCHECKED, -1);
    return IPROF_OK;
}

int ipi_model_retain_types(iprof_model *model, iprof_model_type_pred keep, void *payload,
                           unsigned also)
{
    if (!model)
        return IPROF_EINVAL;
    ipi_errbuf_clear(&model->error);
    if (!keep)
        return ipi_model_fail(model, IPROF_EINVAL, "no predicate");
    size_t j = 0;
    for (size_t i = 0; i < model->type_count; i++)
        if (keep(model->types[i], payload))
            model->types[j++] = model->types[i];
    if (j == model->type_count)
        return IPROF_OK;
    model->type_count = j;
    list_rebuild_ids(type_list(model));
    ipi_model_changed(model, IPI_CHANGED_TYPES_REMOVED | also, -1);
    return IPROF_OK;
}

/* ---- methods ------------------------------------------------------------ */

uint64_t ipi_method_hash(const ipi_str *name, const int64_t *sig, size_t sig_len)
{
    uint64_t h = ipi_hash_combine(name->hash, (uint64_t)sig_len);
    for (size_t i = 0; i < sig_len; i++)
        h = ipi_hash_combine(h, (uint64_t)sig[i]);
    return h;
}

static const iprof_method *method_by_key(const iprof_model *m, const ipi_str *name,
                                         const int64_t *sig, size_t sig_len, uint64_t h)
{
    return ipi_find_method_by_key(m, name, sig, sig_len, h);
}

IPROF_API size_t iprof_model_method_count(const iprof_model *model)
{
    return model ? model->method_count : 0;
}

IPROF_API const iprof_method *iprof_model_method_at(const iprof_model *model, size_t index)
{
    return model && index < model->method_count ? ipi_model_method(model, index) : NULL;
}

IPROF_API const iprof_method *iprof_model_method_by_id(const iprof_model *model, int64_t id)
{
    return model ? ipi_model_method_by_id(model, id) : NULL;
}

IPROF_API const iprof_method *iprof_model_method_find(const iprof_model *model,
                                                      const char *name, size_t name_len,
                                                      const int64_t *signature,
                                                      size_t signature_len)
{
    if (!model || (!name && name_len) || (!signature && signature_len))
        return NULL;
    const ipi_str *s = ipi_intern_find(&model->names, name ? name : "", name_len);
    if (!s)
        return NULL;
    return method_by_key(model, s, signature, signature_len,
                         ipi_method_hash(s, signature, signature_len));
}

IPROF_API int64_t iprof_method_id(const iprof_method *method)
{
    return method ? method->id : 0;
}

IPROF_API const char *iprof_method_name(const iprof_method *method, size_t *len)
{
    if (len)
        *len = method ? method->name->len : 0;
    return method ? method->name->s : NULL;
}

IPROF_API const int64_t *iprof_method_signature(const iprof_method *method, size_t *len)
{
    if (len)
        *len = method ? method->sig_len : 0;
    return method ? method->sig : NULL;
}

int ipi_model_push_method(iprof_model *m, int64_t id, const char *name, size_t name_len,
                          const int64_t *sig, size_t sig_len, const iprof_method **out)
{
    if (sig_len > (SIZE_MAX - sizeof(iprof_method)) / sizeof(int64_t))
        return IPROF_ELIMIT;
    if (name_len > IPI_STR_MAX)
        return IPROF_ELIMIT;
    const ipi_str *s;
    name = name_len ? name : "";
    int rc = ipi_model_intern(m, name, name_len, ipi_str_hash_bytes(name, name_len), &s);
    return rc ? rc : ipi_model_push_method_str(m, id, s, sig, sig_len, out);
}

static int too_many_methods(iprof_model *m)
{
    return ipi_model_fail(m, IPROF_ELIMIT,
                          "more than %zu chunks of methods (of up to %zu KiB each): the model "
                          "refers to methods with 32 bits",
                          m->method_pool.max_chunks, IPI_POOL_CHUNK_MAX >> 10);
}

/* names_key: the method's key in IPI_IX_METHOD_NAMES when known absent
 * there, else NULL (computed and probed). */
static int push_method(iprof_model *m, int64_t id, const ipi_str *s, const int64_t *sig,
                       size_t sig_len, const uint64_t *names_key, const iprof_method **out)
{
    if (sig_len > (SIZE_MAX - sizeof(iprof_method)) / sizeof(int64_t))
        return IPROF_ELIMIT;
    /* The key index is kept up to date only once something built it. */
    ipi_rtab *keys = ipi_index_built(m, IPI_IX_METHOD_KEYS);
    uint64_t h = keys ? ipi_method_hash(s, sig, sig_len) : 0;
    int first_key = keys && method_by_key(m, s, sig, sig_len, h) == NULL;
    int rc = ipi_idpos_reserve(&m->method_ids, &m->alloc, m->method_count, id);
    if (rc)
        return rc;
    if (list_reserve(m, &m->methods, &m->method_cap, m->method_count, sizeof *m->methods))
        return IPROF_ENOMEM;
    if ((first_key && (rc = ipi_rtab_reserve(keys, &m->alloc, 1))) ||
        (rc = ipi_index_reserve_method_names(m)))
        return rc;
    void *at;
    uint32_t ref;
    if ((rc = ipi_pool_alloc(&m->method_pool, sizeof(iprof_method) + sig_len * sizeof *sig, &at,
                             &ref)))
        return rc == IPROF_ELIMIT ? too_many_methods(m) : rc;
    iprof_method *x = at;
    x->id = id;
    x->name = s;
    x->sig_len = sig_len;
    if (sig_len)
        memcpy(x->sig, sig, sig_len * sizeof *sig);
    ipi_idpos_put_reserved(&m->method_ids, m->method_count, id); /* reserved: cannot fail */
    m->methods[m->method_count++] = ref;
    if (first_key)
        ipi_rtab_put(keys, h, ref); /* reserved */
    if (names_key)
        ipi_index_put_method_names(m, ref, *names_key); /* reserved */
    else
        ipi_index_add_method_names(m, ref);             /* reserved */
    if (out)
        *out = x;
    return IPROF_OK;
}

int ipi_model_push_method_str(iprof_model *m, int64_t id, const ipi_str *s, const int64_t *sig,
                              size_t sig_len, const iprof_method **out)
{
    return push_method(m, id, s, sig, sig_len, NULL, out);
}

int ipi_model_push_method_new_key(iprof_model *m, int64_t id, const ipi_str *s,
                                  const int64_t *sig, size_t sig_len, uint64_t names_key,
                                  const iprof_method **out)
{
    return push_method(m, id, s, sig, sig_len, &names_key, out);
}

IPROF_API int iprof_model_add_method(iprof_model *model, int64_t id, const char *name,
                                     size_t name_len, const int64_t *signature,
                                     size_t signature_len, const iprof_method **out)
{
    if (!model)
        return IPROF_EINVAL;
    ipi_errbuf_clear(&model->error);
    ipi_subject about = {-1, NULL, 0, NULL, &id};
    if ((!name && name_len) || (!signature && signature_len))
        return ipi_model_fail_about(model, IPROF_EINVAL, &about,
                                    "method %lld: the name or the signature is NULL", (long long)id);
    if (name_len > IPI_STR_MAX)
        return ipi_model_fail_about(model, IPROF_ELIMIT, &about,
                                    "method %lld: the name is longer than the limit of %zu bytes",
                                    (long long)id, IPI_STR_MAX);
    if (name_len && !ipi_utf8_valid(name, name_len))
        return ipi_model_fail_about(model, IPROF_EINVAL, &about,
                                    "method %lld: the name is not valid UTF-8", (long long)id);
    if (ipi_model_method_by_id(model, id))
        return ipi_model_fail_about(model, IPROF_EINVAL, &about, "method id %lld is taken",
                                    (long long)id);
    int rc = ipi_method_check_sig(model, model, id, signature, signature_len, "the model");
    if (!rc && (rc = ipi_model_push_method(model, id, name, name_len, signature, signature_len,
                                           out)) &&
        !(rc == IPROF_ELIMIT && ipi_errbuf_get(&model->error))) /* the names' limit: said */
        ipi_model_fail_about(model, rc, &about, "%s", push_failure(rc));
    if (!rc && signature_len < 2)
        ipi_model_changed(model, IPI_CHANGED_UNCHECKED, -1); /* a strict read refuses it */
    return rc;
}

int ipi_model_remove_method(iprof_model *model, int64_t id, unsigned also)
{
    if (!model)
        return IPROF_EINVAL;
    ipi_errbuf_clear(&model->error);
    ipi_subject about = {-1, NULL, 0, NULL, &id};
    iprof_method *x = ipi_model_method_by_id(model, id);
    if (!x)
        return ipi_model_fail_about(model, IPROF_ENOTFOUND, &about, "no method with id %lld",
                                    (long long)id);
    list_remove(method_list(model), x);
    ipi_model_changed(model, IPI_CHANGED_METHODS_REMOVED | also, -1);
    return IPROF_OK;
}

IPROF_API int iprof_model_remove_method(iprof_model *model, int64_t id, unsigned int flags)
{
    return ipi_model_remove_method_flags(model, id, flags);
}

int ipi_model_retain_methods(iprof_model *model, iprof_model_method_pred keep, void *payload,
                             unsigned also)
{
    if (!model)
        return IPROF_EINVAL;
    ipi_errbuf_clear(&model->error);
    if (!keep)
        return ipi_model_fail(model, IPROF_EINVAL, "no predicate");
    size_t j = 0;
    for (size_t i = 0; i < model->method_count; i++)
        if (keep(ipi_model_method(model, i), payload))
            model->methods[j++] = model->methods[i];
    if (j == model->method_count)
        return IPROF_OK;
    model->method_count = j;
    list_rebuild_ids(method_list(model));
    ipi_model_changed(model, IPI_CHANGED_METHODS_REMOVED | also, -1);
    return IPROF_OK;
}

/* ---- description -------------------------------------------------------- */

void ipi_describe_method(const iprof_model *m, const iprof_method *method, ipi_sbuf *out)
{
    if (method->sig_len) {
        const iprof_type *t = iprof_model_type_by_id(m, method->sig[0]);
        if (t) {
            ipi_sbuf_put(out, t->name->s, t->name->len);
        } else {
            char num[IPI_I64_MAX_CHARS];
            ipi_sbuf_put(out, "?", 1);
            ipi_sbuf_put(out, num, ipi_fmt_i64(num, method->sig[0]));
        }
        ipi_sbuf_put(out, ".", 1);
    }
    ipi_sbuf_put(out, method->name->s, method->name->len);
}

IPROF_API size_t iprof_model_method_describe(const iprof_model *model,
                                             const iprof_method *method,
                                             char *buf, size_t size)
{
    ipi_sbuf out = {buf, buf ? size : 0, 0};
    if (method)
        ipi_describe_method(model, method, &out);
    return ipi_sbuf_finish(&out);
}
