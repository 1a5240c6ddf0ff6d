/**
 * CPU affinity for engine threads: {@link org.spdl4j.engine.affinity.CpuSet} (a set of CPUs, in taskset's list
 * format) and {@link org.spdl4j.engine.affinity.ThreadAffinity} (pin the calling thread, read where it may run),
 * through FFM downcalls to libc's {@code sched_setaffinity}/{@code sched_getaffinity} on Linux. The pipeline uses them
 * through {@link org.spdl4j.engine.StageOptions#withCpus(CpuSet)}; a refused pinning leaves a thread unpinned, never
 * failed.
 */
package org.spdl4j.engine.affinity;
