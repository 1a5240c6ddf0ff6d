package org.spdl4j.examples.report;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A JFR event per stage task: a recording ({@code -XX:StartFlightRecording} or JDK Mission Control) then shows each
 * decode of {@code spdl4j run} ({@link TracingSlotDecoder}) as a span on its thread, beside GC, I/O and allocation.
 */
@Name("org.spdl4j.Task")
@Label("spdl4j task")
@Category({"spdl4j", "Pipeline"})
@Description("One call of a pipeline stage's function")
@StackTrace(false)
final class TaskEvent extends Event {
    @Label("Stage")
    String stage;
}
