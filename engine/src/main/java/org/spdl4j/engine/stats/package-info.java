/**
 * Per-stage statistics of a pipeline: what the workers record, how it is read, reported and logged.
 *
 * <h2>Who does what</h2>
 * <pre>
 *  worker thread ──on*()──> WorkerStats (single writer, no lock, no allocation)
 *                               │  one per worker, grouped in a StageStats per stage
 *  PipelineStats (one per pipeline, the only reader; a second on the same stages is refused)
 *      sample()   ── swaps every worker's interval histogram (recycled), feeds IntervalHistogramListeners,
 *                    adds it to the stage's accumulated histogram
 *      snapshot() ── sample() + counters ──> PipelineSnapshot [StageSnapshot...]   (immutable)
 *  PipelineStatsReporter  thread spdl4j-&lt;pipeline&gt;-reporter: snapshot() every interval, logs StatsTable.render
 *  StageHistogramLogWriter  an IntervalHistogramListener writing the .hlog
 *  StageStatsEvent          JFR event org.spdl4j.StageStats, one per stage per snapshot
 * </pre>
 *
 * <h2>Typical use (the CLI)</h2>
 * <pre>{@code
 * PipelineStats stats = PipelineStats.of(pipeline.stats()); // once per pipeline: share it, do not create another
 * try (StageHistogramLogWriter hlog = StageHistogramLogWriter.open(stats, Path.of("train.hlog"));
 *      PipelineStatsReporter log = PipelineStatsReporter.start(stats, Duration.ofSeconds(10))) {
 *     for (Batch b : pipeline) { train(b); }
 * }
 * System.out.print(StatsTable.render(stats.runSnapshot())); // the whole run
 * }</pre>
 * The final table is a {@link org.spdl4j.engine.stats.PipelineStats#runSnapshot() runSnapshot()}: closing the
 * reporter has just taken the last interval, so a {@code snapshot()} here would cover the few microseconds since.
 *
 * <h2>Metric names</h2>
 * Stable names, {@code <pipeline>:<stage>:<metric>} ({@link org.spdl4j.engine.stats.PipelineSnapshot#metrics()}):
 * <table class="striped">
 *   <caption>Stage metrics</caption>
 *   <tr><th>metric</th><th>meaning</th></tr>
 *   <tr><td>{@code workers}</td><td>workers (or async task slots) of the stage</td></tr>
 *   <tr><td>{@code items_in}, {@code items_out}</td><td>items taken from the input / published, cumulative</td></tr>
 *   <tr><td>{@code failures}</td><td>tasks that threw, cumulative</td></tr>
 *   <tr><td>{@code tasks}</td><td>tasks run, cumulative (the accumulated histogram's count; short tasks are
 *       sampled with weights, see {@link org.spdl4j.engine.stats.SampledTaskTimer})</td></tr>
 *   <tr><td>{@code task_p50_ns}, {@code task_p90_ns}, {@code task_p99_ns}, {@code task_max_ns}</td>
 *       <td>task-time percentiles since the start</td></tr>
 *   <tr><td>{@code items_out_per_s}</td><td>output rate over the last interval</td></tr>
 *   <tr><td>{@code busy_pct}, {@code starved_pct}, {@code back_pressured_pct}</td>
 *       <td>share of worker time in tasks / waiting for input / blocked on a full output, last interval (an async
 *       stage: per task slot; its dispatcher's time in the function's synchronous part is busy for every idle slot,
 *       and a slot holding a finished result behind a blocked publish is back-pressured; so is an input-order
 *       stage's worker that waits with its result for room in the reorder window while the head's result waits for
 *       room in the output)</td></tr>
 *   <tr><td>{@code ring_occupancy}, {@code ring_capacity}</td><td>items waiting in the input ring, its size</td></tr>
 * </table>
 * Pipeline-wide: {@code <pipeline>:wall_ns}, {@code <pipeline>:interval_ns}, {@code <pipeline>:throughput_per_s}
 * (items out of the last stage per second since the start). Counts are the stages' totals; rates, shares and
 * throughput start when the {@code PipelineStats} is created or {@code markStarted()} runs, so work done before is
 * not charged to them. In {@code .hlog} files each stage's tag is
 * {@code <pipeline>:<stage>}.
 *
 * <h2>The bottleneck</h2>
 * Each snapshot names at most one limiting stage (a marker in the table): if the pipeline's output is blocked at
 * least {@link org.spdl4j.engine.stats.StatsConfiguration#BOTTLENECK_STARVED_PERCENT} of the time (the last stage,
 * or the stage feeding a passive last buffer such as the engine's {@code sink}, is back-pressured), the consumer
 * (training loop) is the limit and the pipeline keeps up; otherwise it is the busiest stage that is at least
 * {@link org.spdl4j.engine.stats.StatsConfiguration#BOTTLENECK_BUSY_PERCENT} busy and whose next stage is at least
 * that starved (or which is last). Give that stage more workers, or make its task cheaper.
 */
package org.spdl4j.engine.stats;
