/**
 * Tar shards: a streaming POSIX ustar / GNU / PAX tar reader and WebDataset sample grouping on top of it.
 *
 * <p>{@link org.spdl4j.engine.source.tar.TarStreamReader} reads member headers and data from a byte channel, one
 * member at a time, never seeking backwards (a shard can come from a pipe or a socket);
 * {@link org.spdl4j.engine.source.tar.WebDatasetSampleIterator} groups consecutive members with the same key
 * ({@code 0001.jpg}, {@code 0001.cls}) into one {@link org.spdl4j.engine.source.Sample};
 * {@link org.spdl4j.engine.source.tar.WebDatasetSource} deals shards to ranks per epoch and resumes mid-epoch.
 */
package org.spdl4j.engine.source.tar;
