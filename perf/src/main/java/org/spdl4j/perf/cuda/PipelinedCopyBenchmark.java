package org.spdl4j.perf.cuda;

import static jcuda.driver.JCudaDriver.cuMemcpyHtoDAsync;
import static jcuda.driver.JCudaDriver.cuStreamCreate;
import static jcuda.driver.JCudaDriver.cuStreamDestroy;
import static jcuda.driver.JCudaDriver.cuStreamSynchronize;

import java.util.concurrent.TimeUnit;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUresult;
import jcuda.driver.CUstream;
import jcuda.driver.CUstream_flags;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.spdl4j.cuda.CudaDevice;
import org.spdl4j.cuda.CudaDriverException;
import org.spdl4j.cuda.DeviceBatch;
import org.spdl4j.cuda.DeviceBuffer;
import org.spdl4j.cuda.HostBatch;
import org.spdl4j.cuda.HostToDeviceTransfer;
import org.spdl4j.cuda.TensorSpec;

/**
 * Copies kept in flight, as a pipeline does:
 * <ul>
 *   <li>{@code rawAsyncBurst}: {@value #BURST} {@code cuMemcpyHtoDAsync} back to back on one stream, then one sync:
 *       the card's streaming rate without a host round trip per copy (the raw reference next to
 *       {@link RawCopyBenchmark});</li>
 *   <li>{@code transfer}: spdl4j's {@link HostToDeviceTransfer} with K = {@value #K} copies in flight, the consumer
 *       closing each device batch K batches later (its close waits for that copy), as a training loop would;
 *       {@value #BURST} copies per invocation, the last K waited for inside it, as the raw burst waits for its
 *       sync, so every byte counted was copied inside the timed window of both.</li>
 * </ul>
 * Goal: transfer from pinned memory at &gt;= 0.9 of the raw pinned rate. Read the "bytes" line as B/s.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 2)
public class PipelinedCopyBenchmark {
    static final int BURST = 8;
    static final int K = 4;

    @Param({CopySize.BATCH, CopySize.BLOCK})
    public String size;

    @Param({"pinned", "pageable"})
    public String memory;

    private CudaDevice device;
    private CopySource source;
    private TensorSpec spec;
    private long bytes;
    // raw
    private DeviceBuffer target;
    private CUdeviceptr dst;
    private final CUstream stream = new CUstream();
    // transfer
    private HostToDeviceTransfer transfer;
    private HostBatch batch;
    private final DeviceBatch[] held = new DeviceBatch[K];

    @Setup(Level.Trial)
    public void setUp() {
        device = GpuBenchmarks.openGpu();
        spec = CopySize.spec(size);
        bytes = spec.byteSize();
        source = new CopySource(device, memory, bytes);
        target = device.allocate(bytes);
        dst = new CUdeviceptr().withByteOffset(target.address());
        check(cuStreamCreate(stream, CUstream_flags.CU_STREAM_NON_BLOCKING), "cuStreamCreate");
        transfer = HostToDeviceTransfer.create(device, K);
        // One host batch reused for every copy: copies only read it, and its release has nothing to give back.
        batch = HostBatch.of(source.address(), spec, () -> { });
    }

    @Setup(Level.Iteration)
    public void bindContext() {
        device.makeCurrent();
    }

    @Benchmark
    @OperationsPerInvocation(BURST)
    public void rawAsyncBurst(ByteCounter counter) {
        for (int i = 0; i < BURST; i++) {
            check(cuMemcpyHtoDAsync(dst, source.pointer(), bytes, stream), "cuMemcpyHtoDAsync");
        }
        check(cuStreamSynchronize(stream), "cuStreamSynchronize");
        counter.bytes += BURST * bytes;
    }

    @Benchmark
    @OperationsPerInvocation(BURST)
    public void transfer(ByteCounter counter) {
        for (int i = 0; i < BURST; i++) {
            int slot = i % K;
            if (held[slot] != null) {
                held[slot].close(); // the batch from K copies ago: waits for its copy, returns its memory
            }
            held[slot] = transfer.apply(batch);
        }
        drain(); // inside the timing: the burst's last K copies count only once they are done
        counter.bytes += BURST * bytes;
    }

    /** Waits for the batches in flight and closes them. */
    private void drain() {
        for (int i = 0; i < K; i++) {
            if (held[i] != null) {
                held[i].close();
                held[i] = null;
            }
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        transfer.close();
        check(cuStreamDestroy(stream), "cuStreamDestroy");
        target.close();
        source.close();
        device.close();
    }

    private void check(int result, String what) {
        if (result != CUresult.CUDA_SUCCESS) {
            throw new CudaDriverException(what + "(" + bytes + " bytes, " + memory + ")", result);
        }
    }
}
