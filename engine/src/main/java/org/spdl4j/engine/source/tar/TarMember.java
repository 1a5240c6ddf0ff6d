package org.spdl4j.engine.source.tar;

/**
 * A regular-file member of a tar stream, as its header describes it.
 *
 * @param name         the member name, with PAX or GNU long names applied; validated not to escape the archive
 * @param size         the data size in bytes
 * @param headerOffset the byte offset of the member's (first) header in the shard
 * @param dataOffset   the byte offset of the member's data in the shard
 */
public record TarMember(String name, long size, long headerOffset, long dataOffset) {
}
