/**
 * HTTP(S) objects as samples, fetched asynchronously with {@link java.net.http.HttpClient}: a bound on requests in
 * flight ({@link org.spdl4j.engine.source.http.AsyncPermits}), retries with backoff on 5xx, resets and timeouts, and
 * one outcome per item ({@link org.spdl4j.engine.source.http.HttpObjectFetcher}), and large bodies that take their
 * buffers one each and, for consumers in call order, in that order ({@link org.spdl4j.engine.source.http.LargeBodies}).
 */
package org.spdl4j.engine.source.http;
