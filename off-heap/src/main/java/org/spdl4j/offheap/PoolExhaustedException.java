package org.spdl4j.offheap;

import java.io.Serial;

/**
 * An acquire waited its whole timeout (or was interrupted) and no slab of the needed size became free. The message
 * names the pool, the size asked, each class's use and high-water mark; the usual causes are leases never released
 * (run with {@code -Dspdl4j.leakDetection=paranoid}) or a pool too small for the work in flight.
 */
public final class PoolExhaustedException extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what was asked of which pool, and how full it is
     * @param cause   an {@link InterruptedException} when the wait was interrupted, else null
     */
    public PoolExhaustedException(String message, Throwable cause) {
        super(message, cause);
    }
}
