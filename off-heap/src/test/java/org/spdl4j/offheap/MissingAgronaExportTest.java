package org.spdl4j.offheap;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spdl4j.offheap.testing.ChildJvm;

/**
 * A user who runs without {@code --add-exports java.base/jdk.internal.misc=ALL-UNNAMED} must be told that flag at the
 * first pool, not meet Agrona's {@code IllegalAccessError} (and a {@code NoClassDefFoundError} at every later pool).
 * The child JVM gets every option of this one but that export.
 */
@Timeout(120)
class MissingAgronaExportTest {
    /** The flag as the JVM reports it among its input arguments (surefire passes it; see the root pom). */
    private static final String EXPORT = "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED";

    /** Opens a pool twice; prints what the first attempt threw, lets the second one's failure end the JVM. */
    public static final class OpenTwice {
        private OpenTwice() {
        }

        /**
         * Entry point of the child JVM.
         *
         * @param args ignored
         */
        public static void main(String[] args) {
            try (BufferPool pool = BufferPool.open(PoolConfig.builder("no-export").build())) {
                System.out.println("opened " + pool);
            } catch (IllegalStateException e) {
                System.out.println("first: " + e);
            }
            BufferPool.open(PoolConfig.builder("no-export-again").build()).close();
        }
    }

    @Test
    void shouldNameTheAddExportsFlagAtEveryPoolWhenItIsMissing() throws Exception {
        ChildJvm.Result run = ChildJvm.runWithout(EXPORT, OpenTwice.class);
        assertThat(run.exit()).as(run.output()).isNotZero();
        String message = "java.lang.IllegalStateException: spdl4j needs --add-exports"
                + " java.base/jdk.internal.misc=ALL-UNNAMED (Agrona's UnsafeApi uses jdk.internal.misc.Unsafe);"
                + " on the module path: --add-exports java.base/jdk.internal.misc=org.agrona";
        assertThat(run.output()).as("the first pool").contains("first: " + message);
        assertThat(run.output()).as("a later pool").contains("Exception in thread \"main\" " + message);
        assertThat(run.output()).doesNotContain("opened");
    }
}
