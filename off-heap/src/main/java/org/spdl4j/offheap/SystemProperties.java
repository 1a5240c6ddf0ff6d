package org.spdl4j.offheap;

import java.util.Arrays;
import java.util.Locale;

/**
 * Reads spdl4j's {@code spdl4j.*} system properties strictly (the few there are: docs/configuration.md lists them).
 * {@link Integer#getInteger} and {@link Long#getLong} return the default for a value that does not parse, so a typo
 * ({@code -Dspdl4j.leakDetection.samplingInterval=1k}) silently leaves the default in effect; here a value that does
 * not parse, or lies outside what the setting accepts, fails with an {@link IllegalArgumentException} that names the
 * property, the value and what is accepted. The configuration
 * classes read their properties once, when they initialise, so the failure reaches the caller as their
 * {@link ExceptionInInitializerError}, with this message as its cause.
 *
 * <p><b>Threading:</b> stateless; any thread.
 */
public final class SystemProperties {
    private SystemProperties() {
    }

    /**
     * {@return the property's value as an int in {@code [min, max]}, or {@code defaultValue} when it is not set}
     *
     * @param name         the property
     * @param defaultValue the value when it is not set
     * @param min          the least accepted value
     * @param max          the greatest accepted value
     * @throws IllegalArgumentException naming the property when the value is not an integer or out of range
     */
    public static int intValue(String name, int defaultValue, int min, int max) {
        return (int) longValue(name, defaultValue, min, max);
    }

    /**
     * {@return the property's value as a long in {@code [min, max]}, or {@code defaultValue} when it is not set}
     *
     * @param name         the property
     * @param defaultValue the value when it is not set
     * @param min          the least accepted value
     * @param max          the greatest accepted value
     * @throws IllegalArgumentException naming the property when the value is not an integer or out of range
     */
    public static long longValue(String name, long defaultValue, long min, long max) {
        String text = System.getProperty(name);
        if (text == null) {
            return defaultValue;
        }
        long value;
        try {
            value = Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("system property " + name + "='" + text + "' is not an integer"
                    + " (default " + defaultValue + ")", e);
        }
        if (value < min || value > max) {
            throw new IllegalArgumentException("system property " + name + "=" + value + " must be in [" + min
                    + ", " + max + "] (default " + defaultValue + ")");
        }
        return value;
    }

    /**
     * {@return the property's value as a finite double in {@code [min, max]}, or {@code defaultValue} when it is not
     * set} Written as {@link Double#parseDouble} reads it ({@code 2.5}, {@code 1e-3}); {@code NaN} and the
     * infinities are refused whatever the range.
     *
     * @param name         the property
     * @param defaultValue the value when it is not set
     * @param min          the least accepted value
     * @param max          the greatest accepted value
     * @throws IllegalArgumentException naming the property when the value is not a finite number or out of range
     */
    public static double doubleValue(String name, double defaultValue, double min, double max) {
        String text = System.getProperty(name);
        if (text == null) {
            return defaultValue;
        }
        double value;
        try {
            value = Double.parseDouble(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("system property " + name + "='" + text + "' is not a number"
                    + " (default " + defaultValue + ")", e);
        }
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException("system property " + name + "='" + text + "' is not a finite number"
                    + " (default " + defaultValue + ")");
        }
        if (value < min || value > max) {
            throw new IllegalArgumentException("system property " + name + "=" + value + " must be in [" + min
                    + ", " + max + "] (default " + defaultValue + ")");
        }
        return value;
    }

    /**
     * {@return the property's value as a boolean, {@code true} or {@code false} ignoring case, or
     * {@code defaultValue} when it is not set} Unlike {@link Boolean#parseBoolean}, which reads {@code "yes"} or
     * {@code "1"} as {@code false}, any other value fails.
     *
     * @param name         the property
     * @param defaultValue the value when it is not set
     * @throws IllegalArgumentException naming the property when the value is neither
     */
    public static boolean booleanValue(String name, boolean defaultValue) {
        String text = System.getProperty(name);
        if (text == null) {
            return defaultValue;
        }
        String value = text.trim();
        if (value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(value);
        }
        throw new IllegalArgumentException("system property " + name + "='" + text + "' is neither true nor false"
                + " (default " + defaultValue + ")");
    }

    /**
     * {@return the property's value as a constant of {@code defaultValue}'s enum, by name and ignoring case, or
     * {@code defaultValue} when it is not set}
     *
     * @param name         the property
     * @param defaultValue the value when it is not set
     * @param <E>          the enum
     * @throws IllegalArgumentException naming the property and the accepted names when the value is none of them
     */
    public static <E extends Enum<E>> E enumValue(String name, E defaultValue) {
        String text = System.getProperty(name);
        if (text == null) {
            return defaultValue;
        }
        E[] constants = defaultValue.getDeclaringClass().getEnumConstants();
        String wanted = text.trim().toUpperCase(Locale.ROOT);
        for (E e : constants) {
            if (e.name().equals(wanted)) {
                return e;
            }
        }
        throw new IllegalArgumentException("system property " + name + "='" + text + "' is none of "
                + Arrays.toString(constants) + " (default " + defaultValue + ")");
    }
}
