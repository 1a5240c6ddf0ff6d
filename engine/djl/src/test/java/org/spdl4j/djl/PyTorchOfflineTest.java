package org.spdl4j.djl;

import static org.assertj.core.api.Assertions.assertThat;

import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.util.Utils;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The test run's DJL engine: PyTorch from the class path, offline, unpacked under target/. */
class PyTorchOfflineTest {
    @Test
    void shouldLoadPyTorchOfflineFromTheClassPath() {
        assertThat(Utils.isOfflineMode()).as("ai.djl.offline / DJL_OFFLINE").isTrue();
        Engine engine = Engine.getEngine("PyTorch");
        assertThat(engine.getVersion()).isEqualTo("2.7.1");
        try (NDManager manager = engine.newBaseManager()) {
            NDArray a = manager.arange(5f);
            assertThat(a.sum().getFloat()).isEqualTo(10f);
        }
        Path cache = Utils.getEngineCacheDir();
        assertThat(cache.toString()).as("the engine cache").contains("target");
        assertThat(Files.isDirectory(cache.resolve("pytorch"))).as(cache + "/pytorch holds the unpacked library")
            .isTrue();
    }
}
