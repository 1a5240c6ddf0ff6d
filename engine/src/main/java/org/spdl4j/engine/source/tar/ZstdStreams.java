package org.spdl4j.engine.source.tar;

import java.io.IOException;
import java.io.InputStream;
import com.github.luben.zstd.ZstdInputStream;

/**
 * The one class that names zstd-jni: loaded only when a {@code .tar.zst} shard is opened, so the engine runs
 * without that optional dependency until then.
 */
final class ZstdStreams {
    private ZstdStreams() {
    }

    /** {@return a decompressing stream over {@code in}, which it closes} */
    static InputStream open(InputStream in) throws IOException {
        return new ZstdInputStream(in);
    }
}
