/* Unit tests of the paged id -> int64 map (lib/common/idpages.c). */
#include "check.h"
#include "check_alloc.h"

#include "idpages.h"

#define NONE INT64_MIN
#define PAGE ((int64_t)IPI_IDPAGES_SIZE)

static fail_alloc fa;
static const iprof_allocator failing = {fa_malloc, fa_realloc, fa_free, &fa};

/* put, expecting it kept. */
static void put(ipi_idpages *p, int64_t id, int64_t val)
{
    int kept = -1;
    CHECK_OK(ipi_idpages_put(p, &failing, id, val, &kept));
    CHECK_EQ_INT(kept, 1);
}

static void test_empty_and_basic(void)
{
    ipi_idpages p;
    ipi_idpages_init(&p, NONE);
    CHECK_EQ_INT(ipi_idpages_get(&p, 0), NONE); /* no table yet */
    CHECK_EQ_INT(ipi_idpages_get(&p, -1), NONE);
    CHECK_EQ_INT(ipi_idpages_get(&p, INT64_MAX), NONE);
    put(&p, 5, -7);
    put(&p, 0, INT64_MAX);
    put(&p, PAGE - 1, 0); /* zero is a value like any other */
    CHECK_EQ_INT(p.count, 3);
    CHECK_EQ_INT(p.page_count, 1);
    CHECK_EQ_INT(ipi_idpages_get(&p, 5), -7);
    CHECK_EQ_INT(ipi_idpages_get(&p, 0), INT64_MAX);
    CHECK_EQ_INT(ipi_idpages_get(&p, PAGE - 1), 0);
    CHECK_EQ_INT(ipi_idpages_get(&p, 4), NONE); /* on the page, not set */
    CHECK_EQ_INT(ipi_idpages_get(&p, PAGE), NONE); /* past the page */
    put(&p, 5, 11); /* replaces, counted once */
    CHECK_EQ_INT(p.count, 3);
    CHECK_EQ_INT(ipi_idpages_get(&p, 5), 11);
    ipi_idpages_free(&p, &failing);
    CHECK(p.pages == NULL && p.table_cap == 0 && p.count == 0 && p.none == NONE);
    CHECK_EQ_INT(fa.live_blocks, 0);
}

/* Ids in order over many pages, as a file numbers them: every page
 * allocated once, every value found, the neighbours of each page's edge
 * exact. */
static void test_in_order(void)
{
    ipi_idpages p;
    ipi_idpages_init(&p, -1);
    const int64_t n = 20 * PAGE + 17;
    for (int64_t id = 0; id < n; id++)
        put(&p, id, id * 3);
    CHECK_EQ_INT(p.count, n);
    CHECK_EQ_INT(p.page_count, 21);
    int ok = 1;
    for (int64_t id = 0; id < n; id++)
        ok &= ipi_idpages_get(&p, id) == id * 3;
    CHECK(ok);
    CHECK_EQ_INT(ipi_idpages_get(&p, n), -1);
    CHECK_EQ_INT(ipi_idpages_get(&p, 21 * PAGE), -1);
    ipi_idpages_free(&p, &failing);
    CHECK_EQ_INT(fa.live_blocks, 0);
}

/* What pages refuse: negative ids, and a page that would leave more than
 * the slack of slots per value set (counting every id up to its end). */
static void test_refused(void)
{
    ipi_idpages p;
    ipi_idpages_init(&p, NONE);
    int kept = -1;
    CHECK_OK(ipi_idpages_put(&p, &failing, -1, 1, &kept));
    CHECK_EQ_INT(kept, 0);
    CHECK_OK(ipi_idpages_put(&p, &failing, INT64_MIN, 1, &kept));
    CHECK_EQ_INT(kept, 0);
    CHECK_OK(ipi_idpages_put(&p, &failing, INT64_MAX, 1, &kept));
    CHECK_EQ_INT(kept, 0);
    CHECK_EQ_INT(p.page_count, 0);
    /* Empty: pages up to SLACK x one page's worth are allowed. */
    int64_t last_free = IPI_IDPAGES_SLACK * PAGE - 1;
    CHECK_OK(ipi_idpages_put(&p, &failing, last_free + 1, 1, &kept));
    CHECK_EQ_INT(kept, 0);
    put(&p, last_free, 2);
    CHECK_EQ_INT(p.count, 1);
    CHECK_EQ_INT(p.page_count, 1);
    /* One id more allows slack more slots: the next page's last id is
     * within reach only once enough ids are set. */
    int64_t next_end = (IPI_IDPAGES_SLACK + 1) * PAGE - 1; /* slack x (count + page) */
    CHECK_OK(ipi_idpages_put(&p, &failing, next_end, 3, &kept));
    CHECK_EQ_INT(kept, 0);
    for (int64_t id = 0; id < PAGE / IPI_IDPAGES_SLACK - 1; id++)
        put(&p, last_free - 1 - id, 4); /* the same page: no new one */
    CHECK_EQ_INT(p.count, PAGE / IPI_IDPAGES_SLACK);
    put(&p, next_end, 3);
    CHECK_EQ_INT(p.page_count, 2);
    CHECK_EQ_INT(ipi_idpages_get(&p, next_end), 3);
    CHECK_EQ_INT(ipi_idpages_get(&p, last_free), 2);
    ipi_idpages_free(&p, &failing);
    CHECK_EQ_INT(fa.live_blocks, 0);
}

/* A failed allocation (the table, then a page) is IPROF_ENOMEM with
 * nothing changed; the next put goes on. */
static void test_out_of_memory(void)
{
    ipi_idpages p;
    ipi_idpages_init(&p, NONE);
    int kept = -1;
    fail_after(&fa, 0); /* the table */
    CHECK_EQ_INT(ipi_idpages_put(&p, &failing, 3, 9, &kept), IPROF_ENOMEM);
    CHECK_EQ_INT(kept, 0);
    CHECK_EQ_INT(p.count, 0);
    fail_after(&fa, 1); /* the table, not the page */
    CHECK_EQ_INT(ipi_idpages_put(&p, &failing, 3, 9, &kept), IPROF_ENOMEM);
    CHECK_EQ_INT(p.count, 0);
    CHECK_EQ_INT(p.page_count, 0);
    CHECK_EQ_INT(ipi_idpages_get(&p, 3), NONE);
    fail_after(&fa, -1);
    put(&p, 3, 9);
    CHECK_EQ_INT(ipi_idpages_get(&p, 3), 9);
    /* The table full (16 pages): growing it fails, then works. */
    for (int64_t id = 0; id < 16 * PAGE; id++)
        put(&p, id, id);
    CHECK_EQ_INT(p.table_cap, 16);
    fail_after(&fa, 0);
    CHECK_EQ_INT(ipi_idpages_put(&p, &failing, 16 * PAGE, 1, &kept), IPROF_ENOMEM);
    CHECK_EQ_INT(p.table_cap, 16);
    CHECK_EQ_INT(ipi_idpages_get(&p, 16 * PAGE - 1), 16 * PAGE - 1);
    fail_after(&fa, -1);
    put(&p, 16 * PAGE, 1);
    CHECK_EQ_INT(p.table_cap, 32);
    CHECK_EQ_INT(p.page_count, 17);
    ipi_idpages_free(&p, &failing);
    CHECK_EQ_INT(fa.live_blocks, 0);
}

int main(void)
{
    RUN(test_empty_and_basic);
    RUN(test_in_order);
    RUN(test_refused);
    RUN(test_out_of_memory);
    return check_done();
}
