package org.spdl4j.media;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts the images whose reduced-scale decode failed and were decoded again at full scale, by cause, and logs each
 * cause once (a dataset of CMYK JPEGs would otherwise log every image): the cause is the failure's text without the
 * input's name, e.g. "avcodec_send_packet failed: Not yet implemented in FFmpeg, patches welcome (-1163346256)".
 *
 * <p>Thread safe. At most {@value #MAX_CAUSES} causes are told apart; later ones are counted under one more.
 */
final class ReducedScaleFallbacks {
    private static final Logger LOG = LoggerFactory.getLogger(ReducedScaleFallbacks.class);
    /** Causes told apart; a corrupt dataset with endless distinct texts cannot grow the map without bound. */
    static final int MAX_CAUSES = 64;
    private static final String OTHER = "other causes";
    private static final Map<String, LongAdder> COUNTS = new ConcurrentHashMap<>();

    private ReducedScaleFallbacks() {
    }

    /**
     * Records one fallback; logs a warning the first time a cause is seen.
     *
     * @param failure the reduced-scale decode's failure
     * @param lowres the scale that failed (1/2^lowres)
     */
    static void record(final MediaException failure, final int lowres) {
        String cause = cause(failure);
        if (COUNTS.size() >= MAX_CAUSES && !COUNTS.containsKey(cause)) {
            cause = OTHER;
        }
        final boolean[] first = new boolean[1];
        COUNTS.computeIfAbsent(cause, c -> {
            first[0] = true;
            return new LongAdder();
        }).increment();
        if (first[0] && LOG.isWarnEnabled()) {
            LOG.warn("{}: decoding at 1/{} scale failed ({}); such images are decoded again at full scale, which works"
                    + " but takes longer (logged once per cause)", failure.input(), 1 << lowres, cause);
        }
    }

    /** {@return fallbacks recorded for a cause (its text without the input's name)} */
    static long count(final String cause) {
        final LongAdder n = COUNTS.get(cause);
        return n == null ? 0 : n.sum();
    }

    /** {@return fallbacks recorded, all causes together} */
    static long total() {
        long sum = 0;
        for (final LongAdder n : COUNTS.values()) {
            sum += n.sum();
        }
        return sum;
    }

    /** {@return a failure's text without the "input: " its message starts with} */
    static String cause(final MediaException failure) {
        final String message = String.valueOf(failure.getMessage());
        final String prefix = failure.input() + ": ";
        return message.startsWith(prefix) ? message.substring(prefix.length()) : message;
    }
}
