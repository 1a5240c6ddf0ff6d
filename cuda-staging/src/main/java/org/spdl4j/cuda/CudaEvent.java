package org.spdl4j.cuda;

import jcuda.driver.CUevent;
import jcuda.driver.CUevent_flags;
import jcuda.driver.CUresult;

/**
 * A CUDA event. Created with {@code CU_EVENT_BLOCKING_SYNC}: a thread waiting in {@link #synchronize()} sleeps in
 * the driver instead of spinning a core (the transfer's completion thread waits this way). Without timing
 * ({@code CU_EVENT_DISABLE_TIMING}, cheaper to record) unless made for timing. One owner closes it.
 */
final class CudaEvent implements DeviceEvent {
    private final CudaContext context;
    private final LiveResourceCounters counters;
    final CUevent handle = new CUevent();
    private boolean closed;

    CudaEvent(CudaContext context, LiveResourceCounters counters, boolean timing) {
        this.context = context;
        this.counters = counters;
        int flags = CUevent_flags.CU_EVENT_BLOCKING_SYNC | (timing ? 0 : CUevent_flags.CU_EVENT_DISABLE_TIMING);
        context.hold(); // the event keeps the context retained until it is destroyed, also past the device's close
        try {
            context.makeCurrent();
            CudaCalls.check(context.driver().eventCreate(handle, flags), "cuEventCreate", context);
        } catch (RuntimeException | Error e) {
            context.drop(e);
            throw e;
        }
        counters.event(+1);
    }

    static CudaEvent of(DeviceEvent event, CudaContext context) {
        if (event instanceof CudaEvent e && e.context == context) {
            return e;
        }
        throw new IllegalArgumentException(event + " is not an event of " + context.name());
    }

    @Override
    public void record(DeviceStream stream) {
        CudaStream s = CudaStream.of(stream, context);
        context.makeCurrent();
        CudaCalls.check(context.driver().eventRecord(handle, s.handle), "cuEventRecord", context);
    }

    @Override
    public boolean isComplete() {
        context.makeCurrent();
        int r = context.driver().eventQuery(handle);
        if (r == CUresult.CUDA_ERROR_NOT_READY) {
            return false;
        }
        CudaCalls.check(r, "cuEventQuery", context);
        return true;
    }

    @Override
    public void synchronize() {
        context.makeCurrent();
        CudaCalls.check(context.driver().eventSynchronize(handle), "cuEventSynchronize", context);
    }

    /**
     * Milliseconds of device time between two completed timing events.
     *
     * @param start recorded first (made for timing)
     * @param end   recorded later (made for timing), complete
     * @return elapsed milliseconds, resolution about half a microsecond
     */
    static float elapsedMillis(CudaEvent start, CudaEvent end) {
        float[] ms = new float[1];
        start.context.makeCurrent();
        CudaCalls.check(start.context.driver().eventElapsedTime(ms, start.handle, end.handle), "cuEventElapsedTime", start.context);
        return ms[0];
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        counters.event(-1);
        Throwable failure = null;
        try {
            context.makeCurrentToFree();
            CudaCalls.check(context.driver().eventDestroy(handle), "cuEventDestroy", context);
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            context.drop(failure); // also when the destroy failed: it is not tried again
        }
    }

    @Override
    public String toString() {
        return "CudaEvent[" + context.name() + ", " + handle + "]";
    }
}
