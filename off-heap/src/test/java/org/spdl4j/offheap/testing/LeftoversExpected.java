package org.spdl4j.offheap.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Exempts a test class from {@link NoLeftoversExtension}, which every test class of a module that has off-heap's
 * test-jar on its test classpath gets by JUnit's extension auto-detection. Only for a class that leaves something
 * behind on purpose (a thread stuck in native code that no close can stop); {@link #value()} says why.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface LeftoversExpected {
    /** Why the class leaves resources behind. */
    String value();
}
