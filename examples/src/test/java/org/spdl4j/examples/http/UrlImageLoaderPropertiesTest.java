package org.spdl4j.examples.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spdl4j.engine.source.http.HttpFetchSettings;
import org.spdl4j.offheap.testing.ChildJvm;

/**
 * {@code spdl4j.urls.largestBody}, read in a fresh JVM (once, when {@link UrlImageLoader} initialises): a value that
 * does not parse must fail naming the property, and any value at least 1 must give a loader that builds.
 */
@Timeout(120)
class UrlImageLoaderPropertiesTest {
    /** Prints the largest body a child JVM sees, then builds and closes a loader over no URLs. */
    public static final class Probe {
        private Probe() {
        }

        /**
         * Entry point of the child JVM.
         *
         * @param args ignored
         */
        public static void main(String[] args) {
            System.out.println("largestBody=" + UrlImageLoader.LARGEST_BODY);
            try (UrlImageLoader loader = new UrlImageLoader("probe", List.of(), 32, 40, 4, 1,
                    HttpFetchSettings.defaults())) {
                System.out.println("built " + loader.leasesInUse());
            }
        }
    }

    /** {@code Integer.getInteger} kept 16 MiB for "8m": the typo went unnoticed. */
    @Test
    void shouldFailNamingALargestBodyThatIsNotANumber() throws Exception {
        ChildJvm.Result run = ChildJvm.run("-Dspdl4j.urls.largestBody=8m", Probe.class);
        assertThat(run.exit()).as(run.output()).isNotZero();
        assertThat(run.output()).contains("system property spdl4j.urls.largestBody='8m' is not an integer");
    }

    /**
     * A largest body of exactly 1 MiB was taken, and then every loader failed to build: "two size classes of 1048576
     * bytes; merge them", naming no property.
     */
    @Test
    void shouldBuildALoaderWhoseLargestBodyIsTheMediumSlab() throws Exception {
        ChildJvm.Result run = ChildJvm.run("-Dspdl4j.urls.largestBody=1048576", Probe.class);
        assertThat(run.exit()).as(run.output()).isZero();
        assertThat(run.output()).contains("largestBody=1048576", "built 0");
    }
}
