package org.spdl4j.records;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * End of stream through stages of different widths on one record ring: the source publishes as many end markers as
 * the widest stage has workers, so a narrower stage before it sees several markers in one run.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RecordEndOfStreamTest {

    /**
     * A single worker whose run holds its end marker in the middle must still give back the slots up to it: the wide
     * stage after it reads through its sequence, and the source, gated by the wide stage, must publish the remaining
     * markers into a ring smaller than the stream's tail.
     */
    @Test
    void shouldEndWhenASingleWorkerStagePrecedesAWiderOne() throws Exception {
        for (int run = 0; run < 40; run++) {
            int records = 5 + run % 7; // end markers start at several offsets into the 16-slot ring
            long[] next = {0};
            long[] received = {0};
            try (RecordPipeline p = RecordPipelineBuilder.named("ends" + run)
                    .recordLength(8)
                    .ringCapacity(16)
                    .source(rec -> {
                        if (next[0] == records) {
                            return false;
                        }
                        rec.putLong(0, next[0]++);
                        return true;
                    })
                    .stage("one", rec -> true, 1)
                    .stage("wide", rec -> true, 16)
                    .consumer(rec -> received[0]++)
                    .build()) {
                p.start();
                assertThat(p.awaitCompletion(Duration.ofSeconds(3)))
                        .as("run %d with %d records completes", run, records).isTrue();
                assertThat(received[0]).as("records received in run %d", run).isEqualTo(records);
            }
        }
    }
}
