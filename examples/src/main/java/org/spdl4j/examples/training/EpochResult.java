package org.spdl4j.examples.training;

/**
 * What one pass over a dataset gave.
 *
 * @param images   images seen
 * @param meanLoss mean cross-entropy per image (measured before each batch's step when training)
 * @param accuracy fraction classified right (before each batch's step when training)
 * @param seconds  wall time of the pass
 */
public record EpochResult(long images, double meanLoss, double accuracy, double seconds) {
}
