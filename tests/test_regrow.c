/* Unit tests of growing a linear-probing table in place
 * (lib/common/regrow.h): after the move every element is found from its
 * new home, nothing is lost or doubled, and the runs that wrap past the
 * old end or the new end (the cases the three steps exist for) are made
 * on purpose. */
#include <string.h>

#include "check.h"

#include "regrow.h"

typedef struct slot {
    uint64_t hash;
    uint32_t key; /* 0: empty */
} slot;

#define EMPTY(x) ((x)->key == 0)
#define HOME(x) ((x)->hash)
IPI_DEFINE_REGROW(regrow, slot, EMPTY, HOME)

#define MAX_CAP 512

static void put(slot *s, size_t cap, uint64_t hash, uint32_t key)
{
    size_t i = hash & (cap - 1);
    while (!EMPTY(&s[i]))
        i = (i + 1) & (cap - 1);
    s[i] = (slot){hash, key};
}

/* Whether key sits at the end of an unbroken probe from its home. */
static int reachable(const slot *s, size_t cap, uint64_t hash, uint32_t key)
{
    for (size_t i = hash & (cap - 1), k = 0; k < cap && !EMPTY(&s[i]); i = (i + 1) & (cap - 1), k++)
        if (s[i].key == key)
            return 1;
    return 0;
}

/* A table of ocap slots holding n keys with the given hashes, grown to
 * ncap: 1 when every key is reachable once and nothing else is there. */
static int grows_right(const uint64_t *hashes, size_t n, size_t ocap, size_t ncap)
{
    static slot s[MAX_CAP];
    memset(s, 0, sizeof s);
    for (size_t k = 0; k < n; k++)
        put(s, ocap, hashes[k], (uint32_t)k + 1);
    regrow(s, ocap, ncap);
    size_t count = 0;
    for (size_t i = 0; i < ncap; i++)
        count += !EMPTY(&s[i]);
    if (count != n)
        return 0;
    for (size_t k = 0; k < n; k++)
        if (!reachable(s, ncap, hashes[k], (uint32_t)k + 1))
            return 0;
    return 1;
}

static uint64_t next(uint64_t *x)
{
    *x = *x * 6364136223846793005u + 1442695040888963407u;
    return *x >> 11;
}

/* The old table's last run wraps into its first slots; after doubling
 * those elements belong after the old end, past slots not yet moved. */
static void test_old_wrap(void)
{
    uint64_t h[12];
    for (int k = 0; k < 12; k++) /* homes 12..15 of 16: a run over the end */
        h[k] = 12 + (uint64_t)(k % 4) + (k % 3 == 0 ? 16 : 0);
    CHECK(grows_right(h, 12, 16, 32));
    CHECK(grows_right(h, 12, 16, 64));
}

/* Homes at the end of the new table: their run wraps past the new end
 * into slots the old table still holds. */
static void test_new_wrap(void)
{
    uint64_t h[12];
    for (int k = 0; k < 12; k++) /* new homes 29..31 of 32; old 13..15 */
        h[k] = 29 + (uint64_t)(k % 3);
    CHECK(grows_right(h, 12, 16, 32));
    for (int k = 0; k < 12; k++) /* the same with a first run at slot 0 */
        h[k] = k < 4 ? (uint64_t)k : 31;
    CHECK(grows_right(h, 12, 16, 32));
}

/* Random tables up to 3/4 full, hashes drawn from a few homes or from
 * all, grown by 2, 4 and 8. */
static void test_random(void)
{
    uint64_t x = 42, h[MAX_CAP];
    int ok = 1, tables = 0;
    for (size_t ocap = 16; ocap <= 64; ocap *= 2)
        for (size_t grow = 2; grow <= 8; grow *= 2)
            for (int round = 0; round < 300; round++) {
                size_t n = (size_t)(next(&x) % (ocap / 4 * 3 + 1));
                uint64_t spread = round % 3 == 0 ? 4 : round % 3 == 1 ? ocap : 1u << 20;
                uint64_t base = next(&x);
                for (size_t k = 0; k < n; k++)
                    h[k] = base + next(&x) % spread;
                ok &= grows_right(h, n, ocap, ocap * grow);
                tables++;
            }
    CHECK(ok);
    CHECK_EQ_INT(tables, 2700);
}

int main(void)
{
    RUN(test_old_wrap);
    RUN(test_new_wrap);
    RUN(test_random);
    return check_done();
}
