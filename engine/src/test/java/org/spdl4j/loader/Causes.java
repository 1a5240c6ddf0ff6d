package org.spdl4j.loader;

/** Test help: an exception's messages down its cause chain, for checking that a failure names its input. */
final class Causes {
    private Causes() {
    }

    /** {@return every message from {@code t} down its causes, joined} */
    static String messages(Throwable t) {
        StringBuilder b = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            b.append(c.getMessage()).append(" | ");
        }
        return b.toString();
    }
}
