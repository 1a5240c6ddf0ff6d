/**
 * spdl4j's record rings: fixed-size records in preallocated off-heap blocks, transformed in place by stages on the
 * engine's threads, with zero garbage. Built on the engine's sequencing, work sharing, threads and failures (its
 * {@code ring} and {@code runtime} packages, exported to this module only). Needs the same JVM flags as the engine:
 * {@code --add-exports java.base/jdk.internal.misc=org.agrona} on the module path (Agrona's unsafe access).
 */
module org.spdl4j.records {
    requires transitive org.spdl4j.engine;
    requires transitive com.lmax.disruptor; // RecordRing hands out its sequencer, sequences and wait strategy
    requires org.slf4j;

    exports org.spdl4j.records;
}
