package org.libiprof;

import java.util.List;

/**
 * A receiver-type profile as GraalVM builds it from an entry.
 * @param shares the types seen, highest share first, ties by type id
 * @param notRecorded the probability left for types the profile did not see
 */
public record TypeShares(List<Share> shares, double notRecorded) {
    /**
     * One type's share.
     * @param typeId the type id
     * @param share its probability
     */
    public record Share(long typeId, double share) {
    }
}
