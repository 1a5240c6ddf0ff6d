package org.spdl4j.engine.stats;

/**
 * Names the stage that limits a pipeline, from the time shares of one interval. The rule, in order:
 * <ol>
 *   <li>If the pipeline's output is blocked, the consumer (the training loop) is the limit: {@link #CONSUMER}. Blocked
 *       means the last stage spends at least {@code starvedPercent} of its time back-pressured, or the last stage is
 *       a passive buffer (no task time, as the engine's {@code sink}) and the stage feeding it is that
 *       back-pressured.</li>
 *   <li>Otherwise the bottleneck is the busiest stage that is at least {@code busyPercent} busy and whose next stage
 *       is at least {@code starvedPercent} starved (the last stage needs no starved successor): work piles up in
 *       front of it and the stages after it wait for it.</li>
 *   <li>Otherwise {@link #NONE}: idle, balanced, or not clear enough to blame anyone.</li>
 * </ol>
 * Stateless and allocation-free.
 */
final class BottleneckHeuristic {
    /** No stage is clearly limiting. */
    static final int NONE = -1;
    /** The consumer after the last stage is limiting. */
    static final int CONSUMER = -2;

    private BottleneckHeuristic() {
    }

    /**
     * Applies the rule.
     *
     * @param busy           busy percent per stage, pipeline order
     * @param starved        starved percent per stage
     * @param backPressured  back-pressured percent per stage
     * @param busyPercent    the minimum busy share of a bottleneck
     * @param starvedPercent the minimum starved share of its successor (and back-pressure share for the consumer)
     * @return the bottleneck's index, {@link #CONSUMER} or {@link #NONE}
     */
    static int find(double[] busy, double[] starved, double[] backPressured, double busyPercent,
                    double starvedPercent) {
        int n = busy.length;
        if (n == 0) {
            return NONE;
        }
        if (blockedOutput(busy, backPressured, starvedPercent) >= 0) {
            return CONSUMER;
        }
        int best = NONE;
        for (int i = 0; i < n; i++) {
            boolean successorWaits = i == n - 1 || starved[i + 1] >= starvedPercent;
            if (busy[i] >= busyPercent && successorWaits && (best == NONE || busy[i] > busy[best])) {
                best = i;
            }
        }
        return best;
    }

    /**
     * Finds the stage blocked on the consumer.
     *
     * @param busy           busy percent per stage
     * @param backPressured  back-pressured percent per stage
     * @param starvedPercent the back-pressure share that counts as blocked
     * @return the last stage if it is blocked; else the one before a passive last stage if that is blocked; else -1
     */
    static int blockedOutput(double[] busy, double[] backPressured, double starvedPercent) {
        int n = busy.length;
        if (n >= 1 && backPressured[n - 1] >= starvedPercent) {
            return n - 1;
        }
        if (n >= 2 && busy[n - 1] == 0 && backPressured[n - 2] >= starvedPercent) {
            return n - 2;
        }
        return -1;
    }
}
