/**
 * JMH profilers of our own: what the kernel did for a benchmark (context switches, CPU time in kernel and user mode),
 * read with Linux's {@code getrusage}, so a throughput figure on an oversubscribed machine comes with the scheduling
 * cost behind it. Use with {@code -prof org.spdl4j.perf.profile.ContextSwitchProfiler}.
 */
package org.spdl4j.perf.profile;
