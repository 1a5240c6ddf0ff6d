package org.spdl4j.perf.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import org.junit.jupiter.api.Test;

/** A baseline's failed decodes cost one sample each, counted, and the run goes on (real photographs include some). */
class ExecutorResultsTest {
    @Test
    void shouldCountFailedImagesAndBatchTheRest() throws Exception {
        BlockingQueue<byte[]> done = new ArrayBlockingQueue<>(100);
        for (int i = 0; i < 70; i++) {
            done.put(i % 25 == 3 ? ExecutorResults.FAILED : new byte[1]);
        }
        List<Integer> batches = new ArrayList<>();
        int failed = ExecutorResults.drain(done, 70, batches::add);
        assertThat(failed).isEqualTo(3);
        assertThat(batches).containsExactly(ImageWork.BATCH, ImageWork.BATCH, 70 - 3 - 2 * ImageWork.BATCH);
    }
}
