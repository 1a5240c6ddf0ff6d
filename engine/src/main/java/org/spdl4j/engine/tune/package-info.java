/**
 * Live tuning of stage concurrency: {@link org.spdl4j.engine.tune.ConcurrencyTuner} reads a running pipeline's stage
 * counters every tick and moves the concurrency of stages built with
 * {@link org.spdl4j.engine.StageOptions#withMaxConcurrency(int)} by hill climbing, within a CPU budget (threads of
 * sync stages) and a memory budget (tasks in flight of async and virtual-thread stages times their bytes).
 */
package org.spdl4j.engine.tune;
