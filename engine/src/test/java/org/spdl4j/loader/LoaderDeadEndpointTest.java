package org.spdl4j.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.engine.FailureBudget;
import org.spdl4j.engine.PipelineFailedException;
import org.spdl4j.offheap.batch.Batch;

/**
 * A URL list on an endpoint that refuses connections: once its circuit breaker is open, each sample fails at once as
 * a read failure of its own, and those failures spend the loader's failure budget, so the loader fails in seconds.
 */
@Timeout(60)
class LoaderDeadEndpointTest {
    @TempDir
    Path dir;

    @Test
    void shouldSpendTheFailureBudgetOnFastFailuresOfAnOpenEndpoint() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort(); // closed again: connections to it are refused
        }
        StringBuilder urls = new StringBuilder();
        for (int i = 0; i < 2_000; i++) {
            urls.append("http://127.0.0.1:").append(port).append("/img/").append(i).append(".jpg\n");
        }
        Path list = Files.writeString(dir.resolve("urls.txt"), urls);
        long start = System.nanoTime();
        try (Loader<Batch> loader = Loader.builder().source(SampleSource.list(list)).decoder(new BytesDecoder())
                .batchSize(4).readConcurrency(8).failureBudget(FailureBudget.count(50)).build()) {
            assertThatThrownBy(() -> {
                while (loader.next(Duration.ofSeconds(30)) != null) {
                    // none arrives
                }
            }).isInstanceOf(PipelineFailedException.class).hasMessageContaining("stage 'read'")
                .hasMessageContaining("51 failed tasks")
                .rootCause().hasMessageContaining("endpoint http://127.0.0.1:" + port + " is down");
            assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start)).as("seconds").isLessThan(20);
            assertThat(loader.failures()).isGreaterThanOrEqualTo(51);
        }
    }
}
