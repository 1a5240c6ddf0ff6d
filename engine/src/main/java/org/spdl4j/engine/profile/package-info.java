/**
 * Profiling a stage alone: {@link org.spdl4j.engine.profile.StageProfiler} runs one function at increasing
 * concurrency over the same inputs and reports the steady-state items/s that come out at each (after one warm-up
 * pass; failed items excluded), as SPDL's {@code profile_pipeline} does, so the
 * concurrency where a stage stops scaling (CPU-bound, lock-bound or I/O-bound) shows before the whole pipeline is tuned.
 */
package org.spdl4j.engine.profile;
