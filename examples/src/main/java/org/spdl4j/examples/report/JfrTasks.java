package org.spdl4j.examples.report;

import java.util.function.Function;

/**
 * Wraps a stage function so that each call is a JFR {@code org.spdl4j.Task} event, named by its stage.
 *
 * <p><b>Cost:</b> when no recording has the event enabled, {@code Event.isEnabled()} is a constant check and the
 * function runs unwrapped in effect (no event object is created); while recording, one small event object per task,
 * acceptable for a diagnosis run.
 */
public final class JfrTasks {
    private JfrTasks() {
    }

    /**
     * {@return {@code fn} emitting one JFR event per call}
     *
     * @param stage the stage name recorded in each event
     * @param fn    the stage function
     * @param <I>   input type
     * @param <O>   output type
     */
    public static <I, O> Function<I, O> wrap(String stage, Function<I, O> fn) {
        return in -> {
            if (!EventEnabled.CHECK.isEnabled()) {
                return fn.apply(in);
            }
            TaskEvent event = new TaskEvent();
            event.begin();
            try {
                return fn.apply(in);
            } finally {
                event.stage = stage;
                event.commit();
            }
        };
    }

    /** One event instance kept to ask whether the event type is enabled right now. */
    private static final class EventEnabled {
        static final TaskEvent CHECK = new TaskEvent();
    }
}
