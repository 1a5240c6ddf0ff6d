package org.spdl4j.offheap;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spdl4j.offheap.testing.ChildJvm;

/**
 * The off-heap module's system properties, each read in a fresh JVM (they are read once, when
 * {@link OffHeapConfiguration} initialises). A value that does not parse or is out of range must fail naming the
 * property, not leave the default silently in effect or be taken and fail later for a reason naming no property.
 */
@Timeout(120)
class OffHeapConfigurationPropertiesTest {
    /** Prints the description a child JVM's pool builder starts from; a configuration failure exits non-zero. */
    public static final class Probe {
        private Probe() {
        }

        /**
         * Entry point of the child JVM.
         *
         * @param args ignored
         */
        public static void main(String[] args) {
            PoolConfig c = PoolConfig.builder("probe").build();
            System.out.println("alignment=" + c.alignment() + " timeout=" + c.acquireTimeout().toMillis()
                    + " checked=" + c.checked() + " leaks=" + c.leakDetection() + " classes=" + c.sizeClasses());
        }
    }

    private static ChildJvm.Result probe(String property) throws IOException, InterruptedException {
        return ChildJvm.run(property, Probe.class);
    }

    /**
     * An alignment of 0 (or any non power of two) from the property bypassed the builder's check: PoolConfig took
     * it, and a slab stride of 0 would put every slab at one address; the allocators refused it only at open, with
     * a message naming no property.
     */
    @Test
    void shouldFailNamingAnAlignmentThatIsNotAPowerOfTwo() throws Exception {
        ChildJvm.Result run = probe("-Dspdl4j.pool.alignment=0");
        assertThat(run.exit()).as(run.output()).isNotZero();
        assertThat(run.output()).contains("system property spdl4j.pool.alignment=0 must be in [1, ");
        run = probe("-Dspdl4j.pool.alignment=48");
        assertThat(run.exit()).as(run.output()).isNotZero();
        assertThat(run.output()).contains("system property spdl4j.pool.alignment=48 must be a power of two");
    }

    /** {@code Long.getLong} fell back to 30 s for "30s": the typo went unnoticed. */
    @Test
    void shouldFailNamingATimeoutThatIsNotANumber() throws Exception {
        ChildJvm.Result run = probe("-Dspdl4j.pool.acquireTimeoutMs=5s");
        assertThat(run.exit()).as(run.output()).isNotZero();
        assertThat(run.output()).contains("system property spdl4j.pool.acquireTimeoutMs='5s' is not an integer");
    }

    /** {@code Boolean.parseBoolean("yes")} is false: asking for checked mode that way silently turned it off. */
    @Test
    void shouldFailNamingABooleanThatIsNeitherTrueNorFalse() throws Exception {
        ChildJvm.Result run = probe("-Dspdl4j.checked=yes");
        assertThat(run.exit()).as(run.output()).isNotZero();
        assertThat(run.output()).contains("system property spdl4j.checked='yes' is neither true nor false");
    }

    /**
     * A size class list that does not parse was taken as text when the class initialised and failed only when a pool
     * was built from the defaults, naming the bad entry but not the property it came from.
     */
    @Test
    void shouldFailNamingASizeClassListThatDoesNotParse() throws Exception {
        ChildJvm.Result run = probe("-Dspdl4j.pool.sizeClasses=4K*8,64K");
        assertThat(run.exit()).as(run.output()).isNotZero();
        assertThat(run.output()).contains("ExceptionInInitializerError",
                "system property spdl4j.pool.sizeClasses: bad size class '64K' in '4K*8,64K': expected size*count");
    }

    /** A trailing comma was dropped by {@code String.split}: the list was taken without a word. */
    @Test
    void shouldFailNamingASizeClassListWithATrailingComma() throws Exception {
        ChildJvm.Result run = probe("-Dspdl4j.pool.sizeClasses=64K*8,256K*4,");
        assertThat(run.exit()).as(run.output()).isNotZero();
        assertThat(run.output()).contains("ExceptionInInitializerError",
                "system property spdl4j.pool.sizeClasses: empty size class in '64K*8,256K*4,'");
    }

    /** Two classes of one size were taken, and every pool built from the defaults failed naming no property. */
    @Test
    void shouldFailNamingASizeClassListWithTwoClassesOfOneSize() throws Exception {
        ChildJvm.Result run = probe("-Dspdl4j.pool.sizeClasses=4K*8,4096*2");
        assertThat(run.exit()).as(run.output()).isNotZero();
        assertThat(run.output()).contains("ExceptionInInitializerError",
                "system property spdl4j.pool.sizeClasses='4K*8,4096*2': two size classes of 4096 bytes");
    }

    /** Already strict: {@link LeakDetectionLevel#parse} fails the initialisation naming the property. */
    @Test
    void shouldFailNamingALeakDetectionLevelThatIsNoLevel() throws Exception {
        ChildJvm.Result run = probe("-Dspdl4j.leakDetection=loud");
        assertThat(run.exit()).as(run.output()).isNotZero();
        assertThat(run.output()).contains("ExceptionInInitializerError", "unknown leak detection level 'loud'",
                "spdl4j.leakDetection", "use off, sampled or paranoid");
    }

    @Test
    void shouldTakeValidValues() throws Exception {
        ChildJvm.Result run = ChildJvm.run(List.of("-Dspdl4j.pool.alignment=4096", "-Dspdl4j.checked=TRUE",
                "-Dspdl4j.leakDetection=Off", "-Dspdl4j.pool.sizeClasses=1M*2, 4k*8"), Probe.class);
        assertThat(run.exit()).as(run.output()).isZero();
        assertThat(run.output()).contains("alignment=4096 timeout=30000 checked=true leaks=OFF classes=["
                + new SizeClassSpec(4096, 8) + ", " + new SizeClassSpec(1 << 20, 2) + "]");
    }
}
