package org.spdl4j.engine.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A sample gives back every field's buffer on close, even when one release fails. */
class SampleCloseTest {
    @Test
    void shouldReleaseEveryFieldWhenAnEarlierReleaseThrows() {
        List<ByteBuffer> released = new ArrayList<>();
        SampleAllocator failingFirst = new SampleAllocator() {
            @Override
            public ByteBuffer allocate(int size) {
                return ByteBuffer.allocate(size);
            }

            @Override
            public void release(ByteBuffer buffer) {
                released.add(buffer);
                if (released.size() == 1) {
                    throw new IllegalStateException("lease already released (test)");
                }
            }
        };
        ByteBuffer a = ByteBuffer.allocate(4);
        ByteBuffer b = ByteBuffer.allocate(4);
        ByteBuffer c = ByteBuffer.allocate(4);
        Sample s = new Sample("k", Sample.NO_LABEL, "test", List.of(new SampleField("jpg", a),
                new SampleField("cls", b), new SampleField("json", c)), failingFirst);

        assertThatThrownBy(s::close).hasMessage("lease already released (test)");
        assertThat(released).containsExactly(a, b, c);
        s.close(); // idempotent: nothing released twice
        assertThat(released).hasSize(3);
    }
}
