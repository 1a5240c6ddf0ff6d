package org.spdl4j.engine;

/** The order in which a stage publishes the results of its concurrent tasks. */
public enum OutputOrder {
    /** As tasks complete: no head-of-line blocking (the default). */
    COMPLETION,
    /** Exactly the order of the stage's input; a slow item holds back the ones after it (within a window). */
    INPUT
}
