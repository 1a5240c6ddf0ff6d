package org.spdl4j.perf.cuda;

import static jcuda.driver.JCudaDriver.cuMemcpyHtoD;

import java.util.concurrent.TimeUnit;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUresult;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.spdl4j.cuda.CudaDevice;
import org.spdl4j.cuda.CudaDriverException;
import org.spdl4j.cuda.DeviceBuffer;

/**
 * The card's own host-to-device rate, measured the plainest way: a loop of synchronous {@code cuMemcpyHtoD} calls
 * straight through JCuda, from pinned, pageable (native) and heap (byte[]) memory. The pinned figure is the
 * reference the transfer stage is compared with ({@link PipelinedCopyBenchmark}); read the "bytes" line as B/s.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 2)
public class RawCopyBenchmark {
    @Param({CopySize.BATCH, CopySize.BLOCK})
    public String size;

    @Param({"pinned", "pageable", "heap"})
    public String memory;

    private CudaDevice device;
    private CopySource source;
    private DeviceBuffer target;
    private CUdeviceptr dst;
    private long bytes;

    @Setup(Level.Trial)
    public void setUp() {
        device = GpuBenchmarks.openGpu();
        bytes = CopySize.spec(size).byteSize();
        source = new CopySource(device, memory, bytes);
        target = device.allocate(bytes);
        dst = new CUdeviceptr().withByteOffset(target.address());
    }

    /** JMH may run iterations on another thread than the setup: bind the context there. */
    @Setup(Level.Iteration)
    public void bindContext() {
        device.makeCurrent();
    }

    @Benchmark
    public void cuMemcpyHtoDLoop(ByteCounter counter) {
        int r = cuMemcpyHtoD(dst, source.pointer(), bytes);
        if (r != CUresult.CUDA_SUCCESS) {
            throw new CudaDriverException("cuMemcpyHtoD(" + bytes + " bytes, " + memory + ")", r);
        }
        counter.bytes += bytes;
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        target.close();
        source.close();
        device.close();
    }
}
