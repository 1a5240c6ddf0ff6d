package org.spdl4j.perf;

import org.openjdk.jmh.annotations.Benchmark;

/** Placeholder so the JMH jar builds; replaced by the real suite. */
public class Noop {
    /** Does nothing. */
    @Benchmark
    public void noop() {
    }
}
