package org.spdl4j.examples.classify;

import org.agrona.DirectBuffer;

/**
 * The example's classifier: nearest class centroid of the mean RGB colour, learned online. Each image is first
 * classified with the centroids seen so far, then added to its class, so the running accuracy is an honest
 * "predict before you see the label" score. Reads uint8 HWC pixels in place; allocates nothing after construction.
 *
 * <p>Not thread-safe: one consumer thread.
 */
final class ColorCentroids {
    private final double[] sums;
    private final long[] counts;
    private final double[] mean = new double[3];
    private long predicted;
    private long right;

    ColorCentroids(int classes) {
        this.sums = new double[classes * 3];
        this.counts = new long[classes];
    }

    /** Classifies one image with the centroids so far, scores it, then adds it to its class. */
    void observe(DirectBuffer pixels, int offset, int pixelCount, int label) {
        double r = 0;
        double g = 0;
        double b = 0;
        for (int p = 0; p < pixelCount; p++) {
            int at = offset + 3 * p;
            r += pixels.getByte(at) & 0xff;
            g += pixels.getByte(at + 1) & 0xff;
            b += pixels.getByte(at + 2) & 0xff;
        }
        mean[0] = r / pixelCount;
        mean[1] = g / pixelCount;
        mean[2] = b / pixelCount;
        int guess = nearest();
        if (guess >= 0) {
            predicted++;
            right += guess == label ? 1 : 0;
        }
        if (label >= 0 && label < counts.length) {
            counts[label]++;
            for (int c = 0; c < 3; c++) {
                sums[label * 3 + c] += mean[c];
            }
        }
    }

    private int nearest() {
        int best = -1;
        double bestDistance = Double.MAX_VALUE;
        for (int k = 0; k < counts.length; k++) {
            if (counts[k] == 0) {
                continue;
            }
            double d = 0;
            for (int c = 0; c < 3; c++) {
                double diff = mean[c] - sums[k * 3 + c] / counts[k];
                d += diff * diff;
            }
            if (d < bestDistance) {
                bestDistance = d;
                best = k;
            }
        }
        return best;
    }

    long count(int label) {
        return counts[label];
    }

    double accuracy() {
        return predicted == 0 ? 0 : right / (double) predicted;
    }

    /** Mean colour of a class, 0..255 per channel. */
    double centroid(int label, int channel) {
        return counts[label] == 0 ? 0 : sums[label * 3 + channel] / counts[label];
    }
}
