package org.spdl4j.engine.stats;

/** What a worker waits for, in a wait it reports while it lasts ({@link WorkerStats#waitStarted}). */
public enum WaitKind {
    /** Input: the upstream did not keep up (the worker is starved). */
    STARVED,
    /** Room in the output: the downstream did not keep up (the worker is back-pressured). */
    BACK_PRESSURED
}
