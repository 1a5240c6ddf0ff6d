/**
 * Tabular data loading for a recommendation model on a record ring (spdl4j-records): click-log rows normalized and
 * hashed in place, assembled into off-heap column batches for a training step, with per-row latency in HdrHistogram.
 * Run {@link org.spdl4j.examples.clicklog.ClickLogExample}.
 */
package org.spdl4j.examples.clicklog;
