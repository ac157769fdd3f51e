/* Growing a linear-probing table in its own block (rtab.c): the
 * block is reallocated to the new capacity, the new slots zeroed, and the
 * old slots' elements moved to their places for the new mask, in place.
 * Only the new slots are touched for the first time, no second table is
 * held beside the old one, and no large block goes back to malloc (glibc
 * would raise its mmap threshold to its size; see rtab.c).
 *
 * Moving an element: take it out of its slot, then put it back by probing
 * from its new home. That is safe when every slot the probe crosses is
 * final (holds an element already moved, or one that will not move) and
 * the element lands at or before the slot it left, so that a later take
 * never opens a hole in a probe sequence already made. An element's new
 * home is its old home h (lower half) or h plus a multiple of the old
 * capacity (the new slots, where only moved elements are). So, with p
 * the first empty old slot and q the last:
 *
 *  1. slots [0, p), the first run: an element whose old run wrapped past
 *     the old end (home above p) lands after the old slots, its probe
 *     crossing old slots not yet moved; step 3 redoes those;
 *  2. slots (p, old cap): each lands at or before its slot; one whose
 *     probe wraps past the new end finds [0, p) already moved;
 *  3. slots (q, e), e the first empty slot from the old capacity on: the
 *     last old run and what follows it, moved again now that all is
 *     final. Every element there has its home at or before its slot (or
 *     wrapped from the new end), and no probe from outside crosses the
 *     run, which ends at an empty slot.
 *
 * IPI_DEFINE_REGROW(name, Slot, is_empty, home) defines
 *     static void name(Slot *s, size_t ocap, size_t ncap)
 * for a block s of ncap slots whose first ocap (a power of two, fewer
 * than 3/4 full; ncap a larger power of two) hold the old table and the
 * rest are zero. is_empty(slot) and home(slot) (its hash bits, unmasked)
 * are expressions of a `const Slot *`. */
#ifndef IPI_REGROW_H
#define IPI_REGROW_H

#include <stddef.h>
#include <string.h>

#define IPI_DEFINE_REGROW(name, Slot, is_empty, home)                              \
    static void name##_move(Slot *s, size_t mask, size_t at)                       \
    {                                                                              \
        if (is_empty(&s[at]))                                                      \
            return;                                                                \
        Slot x = s[at];                                                            \
        memset(&s[at], 0, sizeof x);                                               \
        size_t i = (size_t)(home(&x)) & mask;                                      \
        while (!is_empty(&s[i]))                                                   \
            i = (i + 1) & mask;                                                    \
        s[i] = x;                                                                  \
    }                                                                              \
    static void name(Slot *s, size_t ocap, size_t ncap)                            \
    {                                                                              \
        size_t mask = ncap - 1, p = 0, q = ocap - 1;                               \
        if (!ocap)                                                                 \
            return;                                                                \
        while (!is_empty(&s[p]))                                                   \
            p++;                                                                   \
        while (!is_empty(&s[q]))                                                   \
            q--;                                                                   \
        for (size_t i = 0; i < p; i++)                                             \
            name##_move(s, mask, i);                                               \
        for (size_t i = p + 1; i < ocap; i++)                                      \
            name##_move(s, mask, i);                                               \
        size_t e = ocap;                                                           \
        while (!is_empty(&s[e]))                                                   \
            e++;                                                                   \
        for (size_t i = q + 1; i < e; i++)                                         \
            name##_move(s, mask, i);                                               \
    }

#endif
