package org.spdl4j.cuda;

import jcuda.driver.CUstream;
import jcuda.driver.CUstream_flags;

/**
 * A CUDA stream created non-blocking (it does not serialize with the legacy default stream, so copies on it overlap
 * other libraries' work). One owner closes it; see {@link DeviceStream} for threads.
 */
final class CudaStream implements DeviceStream {
    private final CudaContext context;
    private final LiveResourceCounters counters;
    final CUstream handle = new CUstream();
    private boolean closed;

    CudaStream(CudaContext context, LiveResourceCounters counters) {
        this.context = context;
        this.counters = counters;
        context.hold(); // the stream keeps the context retained until it is destroyed, also past the device's close
        try {
            context.makeCurrent();
            CudaCalls.check(context.driver().streamCreate(handle, CUstream_flags.CU_STREAM_NON_BLOCKING),
                    "cuStreamCreate", context);
        } catch (RuntimeException | Error e) {
            context.drop(e);
            throw e;
        }
        counters.stream(+1);
    }

    /**
     * Unwraps a stream of this context.
     *
     * @param stream  a stream from {@link CudaDevice#createStream()}
     * @param context the context it must belong to
     * @return it, as a CUDA stream
     * @throws IllegalArgumentException when it belongs to another device
     */
    static CudaStream of(DeviceStream stream, CudaContext context) {
        if (stream instanceof CudaStream s && s.context == context) {
            return s;
        }
        throw new IllegalArgumentException(stream + " is not a stream of " + context.name());
    }

    @Override
    public void waitFor(DeviceEvent event) {
        CudaEvent e = CudaEvent.of(event, context);
        context.makeCurrent();
        CudaCalls.check(context.driver().streamWaitEvent(handle, e.handle), "cuStreamWaitEvent", context);
    }

    @Override
    public void synchronize() {
        context.makeCurrent();
        CudaCalls.check(context.driver().streamSynchronize(handle), "cuStreamSynchronize", context);
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        counters.stream(-1);
        Throwable failure = null;
        try {
            context.makeCurrentToFree();
            try {
                CudaCalls.check(context.driver().streamSynchronize(handle), "cuStreamSynchronize before destroy",
                        context);
            } finally {
                CudaCalls.check(context.driver().streamDestroy(handle), "cuStreamDestroy", context);
            }
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            context.drop(failure); // also when the destroy failed: it is not tried again
        }
    }

    @Override
    public String toString() {
        return "CudaStream[" + context.name() + ", " + handle + "]";
    }
}
