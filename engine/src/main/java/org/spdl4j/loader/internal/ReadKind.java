package org.spdl4j.loader.internal;

/** How a loader's read stage gets a sample's bytes. */
public enum ReadKind {
    /** Local files, read on virtual threads into pooled memory. */
    FILES,
    /** http(s) URLs, fetched asynchronously into pooled memory. */
    HTTP,
    /** Whole objects of an {@link org.spdl4j.loader.ObjectStore}, read asynchronously into pooled memory. */
    OBJECTS,
    /** The source reads the bytes itself (tar members): no read stage. */
    INLINE
}
