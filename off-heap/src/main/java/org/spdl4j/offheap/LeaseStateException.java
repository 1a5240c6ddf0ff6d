package org.spdl4j.offheap;

import java.io.Serial;

/**
 * A lease was used in a state that forbids it: released twice, retained or accessed after its last release.
 * Always a bug in the caller; the message names the pool, the lease and what was attempted.
 */
public final class LeaseStateException extends IllegalStateException {
    @Serial
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what was attempted on which lease
     */
    public LeaseStateException(String message) {
        super(message);
    }
}
