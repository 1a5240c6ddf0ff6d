package org.spdl4j.perf.cuda;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/** Bytes moved, reported by JMH as a rate next to ops/s: the "bytes" line reads directly as bytes per second. */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.OPERATIONS)
public class ByteCounter {
    /** Bytes copied during the iteration. */
    public long bytes;

    /** Resets per iteration. */
    @Setup(Level.Iteration)
    public void reset() {
        bytes = 0;
    }
}
