package org.spdl4j.engine.source;

/**
 * What to do when the dataset size is not a multiple of the world size, so that every rank takes the same number of
 * steps per epoch (a rank with one batch more would hang the others at their next collective).
 */
public enum RemainderPolicy {
    /** Each rank takes {@code floor(n / world)} items; the {@code n mod world} left over (a different set each
     * shuffled epoch) are not read this epoch. No item is read twice. */
    DROP,
    /** Each rank takes {@code ceil(n / world)} items; the missing slots repeat items from the start of the epoch's
     * order (as PyTorch's DistributedSampler does). Every item is read at least once. */
    PAD
}
