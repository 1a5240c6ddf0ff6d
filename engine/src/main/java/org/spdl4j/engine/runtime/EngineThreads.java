package org.spdl4j.engine.runtime;

import org.spdl4j.engine.EngineConfiguration;
import org.spdl4j.engine.affinity.ThreadTimerSlack;

/**
 * What every thread the engine starts does first, on itself: sets its timer slack
 * ({@link EngineConfiguration#TIMER_SLACK_NANOS}, so backoff parks last about as long as asked). Affinity is per
 * stage and wraps the body separately ({@link StageAffinity#around(Runnable)}).
 *
 * <p><b>Threading:</b> the returned task runs on the new thread; nothing is shared. A platform without timer slack
 * (not Linux) runs the body unchanged.
 */
public final class EngineThreads {
    private EngineThreads() {
    }

    /**
     * {@return a task that prepares its thread, then runs {@code body}}
     *
     * @param body what the thread does
     */
    public static Runnable prepared(Runnable body) {
        long slack = EngineConfiguration.TIMER_SLACK_NANOS;
        if (!ThreadTimerSlack.isSupported()) {
            return body;
        }
        return () -> {
            ThreadTimerSlack.setForCurrentThread(slack); // a refusal leaves the default: slower parks, nothing else
            body.run();
        };
    }
}
