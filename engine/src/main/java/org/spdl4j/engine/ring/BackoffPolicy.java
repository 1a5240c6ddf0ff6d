package org.spdl4j.engine.ring;

import org.spdl4j.engine.EngineConfiguration;

/**
 * The phases of the {@code BACKOFF} wait, shared by consumers ({@link BackoffWaitStrategy}) and by producers and
 * pollers ({@link BackoffIdle}): spin, then yield, then park with a period doubling from {@code minParkNanos} to
 * {@code maxParkNanos}.
 *
 * <p><b>When the yield phase ends.</b> A yield that returns at once means no other thread wanted this CPU: yielding
 * again only burns it, so after {@code yields} such <em>idle yields</em> the waiter parks. A yield that took longer
 * than {@code contendedYieldNanos} means another thread ran meanwhile: the CPU is contended, and on an
 * oversubscribed machine that other thread is usually the one the waiter waits for (a pipeline runs more threads than
 * cores). Parking there would cost a timed wake-up of up to {@code maxParkNanos} while the ring refills, and the
 * stage would fall out of step with its neighbours; so contended yields do not count towards parking. The yield
 * phase still ends after {@code yieldPhaseNanos} in all, so two idle threads that keep yielding to each other park
 * soon as well. With {@code contendedYieldNanos = 0} every yield counts, the classic spin-yield-park backoff.
 *
 * <p><b>How long the spin phase is.</b> Up to {@code spins}, adapted to how recent waits ended ({@link AdaptiveSpin}):
 * spinning while the producer needs this very CPU only delays it.
 *
 * @param spins               the most iterations of {@link Thread#onSpinWait()} before the first yield
 * @param yields              idle yields (shorter than {@code contendedYieldNanos}) before parking
 * @param contendedYieldNanos a yield taking at least this long counts as contended (0: none does)
 * @param yieldPhaseNanos     the longest the yield phase lasts, contended or not
 * @param minParkNanos        the first park period, at least 1
 * @param maxParkNanos        the longest park period (how late a parked waiter may notice work), at least the first
 */
public record BackoffPolicy(int spins, int yields, long contendedYieldNanos, long yieldPhaseNanos, long minParkNanos,
                            long maxParkNanos) {

    /**
     * Validates the phases.
     *
     * @throws IllegalArgumentException if a count or duration is negative, or the park periods are out of order
     */
    public BackoffPolicy {
        if (spins < 0 || yields < 0 || contendedYieldNanos < 0 || yieldPhaseNanos < 0) {
            throw new IllegalArgumentException("backoff counts and durations must be >= 0: " + spins + " spins, "
                    + yields + " yields, " + contendedYieldNanos + " ns contended, " + yieldPhaseNanos + " ns phase");
        }
        if (minParkNanos < 1 || maxParkNanos < minParkNanos) {
            throw new IllegalArgumentException("park periods need 1 <= min <= max, got " + minParkNanos + " and "
                    + maxParkNanos + " ns");
        }
    }

    /** {@return the engine's backoff (the {@code BACKOFF_*} constants of {@link EngineConfiguration})} */
    public static BackoffPolicy configured() {
        return new BackoffPolicy(EngineConfiguration.BACKOFF_SPINS, EngineConfiguration.BACKOFF_YIELDS,
                EngineConfiguration.BACKOFF_CONTENDED_YIELD_NANOS, EngineConfiguration.BACKOFF_YIELD_PHASE_NANOS,
                EngineConfiguration.BACKOFF_MIN_PARK_NANOS, EngineConfiguration.BACKOFF_MAX_PARK_NANOS);
    }

    /**
     * Whether a yield that took {@code nanos} was contended: another thread ran on this CPU meanwhile.
     *
     * @param nanos how long the yield took
     * @return {@code true} if it was ({@code false} whenever contention is not considered)
     */
    boolean isContended(long nanos) {
        return contendedYieldNanos > 0 && nanos >= contendedYieldNanos;
    }
}
