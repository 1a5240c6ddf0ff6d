package org.spdl4j.engine.source.http;

import java.net.URI;
import java.time.InstantSource;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@link EndpointBreaker}s of the endpoints one client talks to, one per scheme, host and port, made on first
 * use. Any client of remote storage can keep one (an HTTP fetcher does).
 *
 * <p><b>Threading:</b> thread-safe. <b>Allocation:</b> the endpoint's name per lookup (a string built from the URI);
 * a breaker per endpoint, once.
 */
public final class EndpointBreakers {
    private final CircuitBreakerSettings settings;
    private final InstantSource clock;
    private final ConcurrentHashMap<String, EndpointBreaker> breakers = new ConcurrentHashMap<>();

    /**
     * Creates the breakers, with the system clock.
     *
     * @param settings when an endpoint opens and for how long
     */
    public EndpointBreakers(CircuitBreakerSettings settings) {
        this(settings, InstantSource.system());
    }

    /**
     * Creates the breakers.
     *
     * @param settings when an endpoint opens and for how long
     * @param clock    the time (a fake one in tests)
     */
    public EndpointBreakers(CircuitBreakerSettings settings, InstantSource clock) {
        this.settings = settings;
        this.clock = clock;
    }

    /**
     * {@return the endpoint of a URI: lower-case scheme and host, and the port (the scheme's default when the URI
     * names none), e.g. {@code http://10.0.0.5:80}; {@code null} when it has no scheme or host}
     *
     * @param uri the URI
     */
    public static String endpointOf(URI uri) {
        String scheme = uri.getScheme();
        String host = uri.getHost();
        if (scheme == null || host == null) {
            return null;
        }
        scheme = scheme.toLowerCase(Locale.ROOT);
        int port = uri.getPort() >= 0 ? uri.getPort() : switch (scheme) {
            case "http" -> 80;
            case "https" -> 443;
            default -> -1;
        };
        return scheme + "://" + host.toLowerCase(Locale.ROOT) + (port >= 0 ? ":" + port : "");
    }

    /**
     * {@return the breaker of a URI's endpoint, or {@code null} when breakers are {@link
     * CircuitBreakerSettings#disabled() disabled} or the URI names no endpoint}
     *
     * @param uri the URI
     */
    public EndpointBreaker forUri(URI uri) {
        if (!settings.enabled()) {
            return null;
        }
        String endpoint = endpointOf(uri);
        return endpoint == null ? null
            : breakers.computeIfAbsent(endpoint, e -> new EndpointBreaker(e, settings, clock));
    }
}
