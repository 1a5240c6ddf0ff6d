package org.spdl4j.loader;

/**
 * One sample (or one tar shard) a loader could not deliver, as {@link LoaderBuilder#onFailure} tells it: which stage
 * failed, on what, and why. A failed sample is settled: a resumed run does not try it again.
 *
 * @param stage    the stage that failed ({@link Loader#READ_STAGE}, {@link Loader#DECODE_STAGE}, the source's name
 *                 for a shard it could not read)
 * @param key      the sample's key (path, {@code shard@member}, URL), or what the source names (such as
 *                 {@code "tar shard /data/train-0003.tar"})
 * @param epoch    the sample's epoch, or -1 when the failure is not one sample's
 * @param position the sample's position in its epoch, or -1 when the failure is not one sample's
 * @param cause    what went wrong; its message names the input and the native error text where there is one
 */
public record SampleFailure(String stage, String key, long epoch, long position, Throwable cause) {
    /** {@return one line: stage, key and cause} */
    @Override
    public String toString() {
        return stage + ": " + key + (epoch >= 0 ? " (epoch " + epoch + ", position " + position + ")" : "") + ": "
            + cause;
    }
}
