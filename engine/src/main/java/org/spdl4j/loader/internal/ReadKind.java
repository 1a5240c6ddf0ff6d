package org.spdl4j.loader.internal;

/** How a loader's read stage gets a sample's bytes. */
public enum ReadKind {
    /** Local files, read on virtual threads into pooled memory. */
    FILES,
    /** http(s) URLs, fetched asynchronously into pooled memory. */
    HTTP,
    /** The source reads the bytes itself (tar members): no read stage. */
    INLINE
}
