package org.libiprof;

/** How a count times a weight that is not a whole number is rounded ({@code enum iprof_rounding}). */
public enum Rounding {
    /** To the nearest, halves away from zero (the default): 7 x 0.5 gives 4. */
    NEAREST_AWAY,
    /** To the nearest, halves to even: 7 x 0.5 gives 4, 5 x 0.5 gives 2. */
    NEAREST_EVEN,
    /** Down: 7 x 0.5 gives 3. */
    FLOOR
}
