/**
 * Image batches from a list of HTTP(S) URLs: asynchronous fetches into pooled off-heap memory, then the same
 * slot-assign and decode-into-slot stages as the other loaders.
 */
package org.spdl4j.examples.http;
