package org.spdl4j.engine.source;

/** When a {@link WeightedMixSource} ends its epoch. */
public enum MixStopPolicy {
    /** At the first pick of a source that has run out: the mixture keeps its proportions to the end. */
    FIRST_EXHAUSTED,
    /** When every source has run out: an exhausted source drops out and the others share its weight. */
    ALL_EXHAUSTED
}
