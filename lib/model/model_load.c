/*
 * Building a model with the public streaming reader. The reader validates;
 * the callbacks here only store, keeping the file's order and any
 * duplicates a lenient read lets through, so writing the model back gives
 * the file's bytes.
 */
#include "load_builder.h"
#include "model.h"
#include "reader_internal.h"

typedef struct loader {
    ipi_builder *builder;
    int status; /* why a callback stopped the read */
    /* The layout beyond the profile: stored into m->extras directly, on
     * the reading thread (a threaded load's builder never touches it). */
    iprof_model *m;
    int after; /* the last known top-level key met */
    const ipi_load_hooks *hooks;
} loader;

/* Tell a streaming merge that an event was put at byte `at` of b. */
static void put_done(loader *l, ipi_batch *b, size_t at)
{
    if (l->hooks && l->hooks->on_put)
        l->hooks->on_put(l->hooks->payload, b, at);
}

/* Room for an event of `size` bytes; on failure, the status is recorded
 * for the reader to stop with. */
static ipi_batch *room(loader *l, size_t size)
{
    return ipi_builder_room(l->builder, size, l->hooks, &l->status);
}

static int on_version(const char *version, size_t len, void *payload)
{
    loader *l = payload;
    ipi_batch *b = room(l, ipi_batch_named_size(len, 0));
    if (b)
        ipi_batch_put_version(b, version, len);
    return !b;
}

static int on_type(int64_t id, const char *name, size_t name_len, void *payload)
{
    loader *l = payload;
    ipi_batch *b = room(l, ipi_batch_named_size(name_len, 0));
    if (b) {
        size_t at = b->used;
        ipi_batch_put_type(b, id, name, name_len);
        put_done(l, b, at);
    }
    return !b;
}

static int on_method(int64_t id, const char *name, size_t name_len, const int64_t *signature,
                     size_t signature_len, void *payload)
{
    loader *l = payload;
    ipi_batch *b = room(l, ipi_batch_named_size(name_len, signature_len));
    if (b) {
        size_t at = b->used;
        ipi_batch_put_method(b, id, name, name_len, signature, signature_len);
        put_done(l, b, at);
    }
    return !b;
}

static int on_entry(int kind, const int64_t *frames, size_t frame_count,
                    const int64_t *records, size_t record_count, void *payload)
{
    loader *l = payload;
    /* A ctx without frames has no node to stand for it; a kind outside
     * 0..5 would not survive the batch's encoding. */
    if (frame_count == 0 || kind < 0 || kind >= IPROF_KIND_COUNT) {
        l->status = IPROF_ESCHEMA;
        return 1;
    }
    ipi_batch *b = room(l, ipi_batch_entry_size(frame_count, record_count));
    if (b) {
        size_t at = b->used;
        ipi_batch_put_entry(b, kind, frames, frame_count, records, record_count);
        put_done(l, b, at);
    }
    return !b;
}

static int on_key(const char *key, size_t key_len, int section, void *payload)
{
    loader *l = payload;
    (void)key_len;
    if (section == IPROF_SECTION_UNKNOWN)
        return 0;
    l->after = section;
    if (l->hooks && l->hooks->on_section &&
        (l->status = l->hooks->on_section(l->hooks->payload, section)))
        return 1;
    if (section == IPROF_KIND_INSTANCEOF) /* "instanceOfProfiles" or "instanceofProfiles" */
        l->m->extras.instanceof_key =
            key[8] == 'O' ? IPROF_INSTANCEOF_KEY_CAMEL : IPROF_INSTANCEOF_KEY_LOWER;
    return 0;
}

static int on_unknown(const char *key, size_t key_len, const char *json, size_t json_len,
                      void *payload)
{
    loader *l = payload;
    l->status = ipi_unknown_push(l->m, key, key_len, json, json_len, l->after);
    return l->status != IPROF_OK;
}

static const iprof_read_callbacks load_callbacks = {
    IPROF_READ_CALLBACKS_VERSION, on_version, on_type, on_method,
    on_entry, on_entry, on_entry, on_entry, on_entry, on_entry, on_unknown, on_key,
};

int ipi_load_run(iprof_reader *reader, const iprof_source *src, ipi_builder *b,
                 iprof_model *extras, int keep_build_error, const ipi_load_hooks *hooks)
{
    loader l = {b, IPROF_OK, extras, -1, hooks};
    int rc = iprof_reader_read(reader, src, &load_callbacks, &l);
    if (hooks && hooks->on_flush)
        hooks->on_flush(hooks->payload);
    /* A salvaging load keeps the elements the reader handed over before
     * the damage: they are complete, as callbacks see only whole ones. */
    int salvage = rc != IPROF_OK && !l.status && !hooks && ipi_reader_salvageable(reader, rc);
    int built = ipi_builder_finish(b, rc != IPROF_OK && !salvage);
    if (salvage) {
        if (!built)
            ipi_reader_set_salvaged(reader);
        else /* reported as a build failure below */
            l.status = built;
        rc = built ? IPROF_ESTOPPED : IPROF_OK;
    }
    if (built && !l.status)
        l.status = built;
    if (rc == IPROF_OK && l.status)
        rc = IPROF_ESTOPPED; /* the last events failed: as if a callback stopped */
    if (rc == IPROF_ESTOPPED && l.status) {
        rc = l.status; /* our callback stopped it: report why */
        /* The model says why when it knows (a limit such as its context
         * node count). */
        const iprof_error *why = iprof_model_error(extras);
        if (!keep_build_error)
            ipi_reader_replace_error(reader, rc,
                                     rc == IPROF_ENOMEM ? "out of memory building the model"
                                     : why && why->status == rc && why->message
                                         ? why->message
                                         : iprof_status_string(rc));
    }
    if (rc == IPROF_OK) {
        iprof_read_result r = IPROF_READ_RESULT_INIT;
        iprof_reader_get_result(reader, &r);
        ipi_unknown_note_unread(extras, r.unread_count, r.unread_first);
    }
    return rc;
}

static int apply_load(ipi_batch *batch, void *payload)
{
    return ipi_batch_apply(payload, batch);
}

static int load(iprof_model **out, iprof_reader *reader, const iprof_source *src)
{
    if (!out)
        return IPROF_EINVAL;
    *out = NULL;
    if (!reader)
        return IPROF_EINVAL;
    int rc = ipi_reader_check_source(reader, src); /* before anything is made */
    if (rc)
        return rc;
    iprof_model *m;
    rc = iprof_model_new(&m, ipi_reader_allocator(reader));
    if (rc) {
        ipi_reader_fail(reader, rc, "out of memory creating the model");
        return rc;
    }
    int threaded = (ipi_reader_flags(reader) & IPROF_READ_THREADED) != 0;
    ipi_builder *b = ipi_builder_start(&m->alloc, apply_load, m, threaded);
    if (!b) {
        iprof_model_free(m);
        ipi_reader_fail(reader, IPROF_ENOMEM, "out of memory creating the model");
        return IPROF_ENOMEM;
    }
    rc = ipi_load_run(reader, src, b, m, 0, NULL);
    if (rc) {
        iprof_model_free(m);
        return rc;
    }
    /* After damage, references that waited for a later section were
     * never checked: the writer checks them. */
    iprof_read_result r = IPROF_READ_RESULT_INIT;
    iprof_reader_get_result(reader, &r);
    if (!ipi_reader_vouches(reader) || r.damage)
        ipi_model_changed(m, IPI_CHANGED_UNCHECKED, -1); /* a new model's is set */
    ipi_model_shrink(m); /* the lists grew by steps: their slack goes */
    *out = m;
    return IPROF_OK;
}

/* A read that checked references and found no rule broken vouches for
 * what a strict read asks: writing the model needs no check. */
int ipi_reader_vouches(iprof_reader *reader)
{
    iprof_read_result r = IPROF_READ_RESULT_INIT;
    int ok = !(ipi_reader_flags(reader) & IPROF_READ_NO_REFERENCES) &&
             iprof_reader_get_result(reader, &r) == IPROF_OK && r.dropped_errors == 0;
    for (size_t i = 0; ok && i < r.diag_count; i++)
        if (iprof_reader_diag(reader, i)->severity == IPROF_SEVERITY_ERROR)
            ok = 0;
    return ok;
}

IPROF_API int iprof_model_load(iprof_model **out, iprof_reader *reader,
                               const iprof_source *source)
{
    return load(out, reader, source);
}
