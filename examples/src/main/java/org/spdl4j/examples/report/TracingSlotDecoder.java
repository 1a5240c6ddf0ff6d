package org.spdl4j.examples.report;

import java.util.Objects;
import org.spdl4j.offheap.batch.EncodedSample;
import org.spdl4j.offheap.batch.SlotDecoder;
import org.spdl4j.offheap.tensor.DType;

/**
 * A {@link SlotDecoder} that makes each decode a task span: one JFR {@code org.spdl4j.Task} event (stage
 * {@value #STAGE}) when a recording has the event enabled, and, given a {@link TaskTrace}, one span on the decoding
 * thread's track of the Perfetto trace. Everything else is the wrapped decoder's.
 *
 * <p><b>Cost:</b> without a trace and a recording, one constant check per sample; with a recording, one small event
 * object per sample (a diagnosis run). <b>Threading:</b> as the wrapped decoder: any number of threads.
 * <b>Ownership:</b> owns the wrapped decoder; {@link #close()} closes it.
 */
public final class TracingSlotDecoder implements SlotDecoder {
    /** The stage name of the spans and events: the loader's decode stage. */
    public static final String STAGE = "decode";

    private final SlotDecoder decoder;
    private final TaskTrace trace;
    private final int stageId;

    /**
     * Wraps a decoder.
     *
     * @param decoder the decoder, owned from here on
     * @param trace   where spans go, or {@code null} for JFR events only
     */
    public TracingSlotDecoder(SlotDecoder decoder, TaskTrace trace) {
        this.decoder = Objects.requireNonNull(decoder, "decoder");
        this.trace = trace;
        this.stageId = trace == null ? -1 : trace.stage(STAGE);
    }

    @Override
    public DType dtype() {
        return decoder.dtype();
    }

    @Override
    public long[] sampleShape() {
        return decoder.sampleShape();
    }

    @Override
    public boolean readsFiles() {
        return decoder.readsFiles();
    }

    @Override
    public void decode(EncodedSample sample, long destination, int length) {
        // JFR not initialised (no recording started yet): no event object at all, since the first one would
        // initialise JFR on this decode thread (about 70 ms in the first batch of every run).
        TaskEvent event = jdk.jfr.FlightRecorder.isInitialized() && EventEnabled.CHECK.isEnabled()
            ? new TaskEvent() : null;
        if (event != null) {
            event.begin();
        }
        long start = trace != null ? System.nanoTime() : 0;
        try {
            decoder.decode(sample, destination, length);
        } finally {
            if (trace != null) {
                trace.record(stageId, start, System.nanoTime());
            }
            if (event != null) {
                event.stage = STAGE;
                event.commit();
            }
        }
    }

    @Override
    public void close() {
        decoder.close();
    }

    /** One event instance kept to ask whether the event type is enabled right now. */
    private static final class EventEnabled {
        static final TaskEvent CHECK = new TaskEvent();
    }
}
