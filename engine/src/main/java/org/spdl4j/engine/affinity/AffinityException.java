package org.spdl4j.engine.affinity;

import java.io.Serial;

/**
 * The operating system did not pin a thread: the call failed (its {@link #errno()} and text are in the message) or
 * the platform has no thread affinity. The engine catches it, logs it once per stage and runs the thread unpinned.
 */
public final class AffinityException extends Exception {
    @Serial
    private static final long serialVersionUID = 1L;

    /** The {@link #errno()} of a failure that is not a native call's (an unsupported platform). */
    public static final int NO_ERRNO = -1;

    private final int errno;

    /**
     * Creates one.
     *
     * @param message what failed, with the native error text
     * @param errno   the C {@code errno}, or {@link #NO_ERRNO}
     */
    public AffinityException(String message, int errno) {
        super(message);
        this.errno = errno;
    }

    /** {@return the C {@code errno} of the failed call (22 is EINVAL), or {@link #NO_ERRNO}} */
    public int errno() {
        return errno;
    }
}
