package org.spdl4j.s3;

import java.io.IOException;
import java.net.URI;
import java.nio.channels.SeekableByteChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.spdl4j.engine.source.Sample;
import org.spdl4j.engine.source.SampleAllocator;
import org.spdl4j.engine.source.tar.ShardCompression;
import org.spdl4j.loader.ObjectStore;
import org.spdl4j.loader.SampleEntry;
import org.spdl4j.loader.SampleSource;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * S3 or an S3-compatible store (MinIO, Ceph, S3Proxy, ...) as a loader's {@link ObjectStore}, on the AWS SDK for
 * Java v2's asynchronous client (Netty HTTP client): {@link #source} lists {@code s3://bucket/prefix/} into whole
 * objects (images, one sample each) or into WebDataset tar shards ({@code .tar}, {@code .tar.gz}, {@code .tar.zst}).
 *
 * <pre>{@code
 * try (S3ObjectStore store = S3ObjectStore.builder().region("eu-west-1").build();
 *      Loader<Batch> loader = Loader.builder().source(store.source("s3://bucket/train/"))
 *          .decoder(ImageSlotDecoder.evaluation(256, 224)).readConcurrency(64).build()) {
 *     for (LoadedBatch<Batch> batch : loader) { ... }
 * }
 * }</pre>
 *
 * <p><b>Reads:</b> objects are read by the loader's read stage, {@code readConcurrency} GETs in flight (capped by
 * {@link Builder#maxConcurrency}), each body straight into one slab of the loader's pool. Shards stream on the
 * loader's source thread as ranged GETs, {@link Builder#readAhead} parts in flight ahead of the reader. Every request
 * has a per-attempt deadline ({@link Builder#attemptTimeout}) and bounded retries ({@link Builder#maxAttempts}, the
 * SDK's standard strategy: throttling and 5xx answers, with back-off). <b>Resume</b> is the loader's: objects are a
 * list (sorted keys) the loader opens at a position; a shard resumed inside skips whole members, by range for a plain
 * {@code .tar}, by reading through a compressed one.
 *
 * <p><b>Threading:</b> thread-safe. <b>Ownership:</b> owns the SDK client (its connections and event loop threads)
 * and an executor of virtual threads that allocate bodies' buffers; {@link #close()} after the loaders that use it.
 */
public final class S3ObjectStore implements ObjectStore, AutoCloseable {
    /** Requests in flight on the store's connections unless {@link Builder#maxConcurrency} sets another. */
    public static final int DEFAULT_MAX_CONCURRENCY = 64;
    /** Attempts per request (the first and its retries) unless {@link Builder#maxAttempts} sets another. */
    public static final int DEFAULT_MAX_ATTEMPTS = 3;
    /** Deadline of one attempt unless {@link Builder#attemptTimeout} sets another. */
    public static final Duration DEFAULT_ATTEMPT_TIMEOUT = Duration.ofSeconds(30);
    /** Bytes per ranged GET of a shard stream unless {@link Builder#partSize} sets another. */
    public static final int DEFAULT_PART_SIZE = 8 * 1024 * 1024;
    /** Ranged GETs in flight ahead of a shard's reader unless {@link Builder#readAhead} sets another. */
    public static final int DEFAULT_READ_AHEAD = 4;
    /** The largest object read as one sample unless {@link Builder#maxObjectBytes} sets another. */
    public static final long DEFAULT_MAX_OBJECT_BYTES = 32L * 1024 * 1024;
    /** The region used with an endpoint override when none is given (S3-compatible stores mostly ignore it). */
    public static final String DEFAULT_COMPATIBLE_REGION = "us-east-1";

    private final S3AsyncClient client;
    private final URI endpoint;
    private final String region;
    private final int maxAttempts;
    private final int partSize;
    private final int readAhead;
    private final long maxObjectBytes;
    private final Duration listTimeout;
    private final ExecutorService allocating;

    private S3ObjectStore(Builder b) {
        this.endpoint = b.endpoint;
        this.region = resolveRegion(b);
        this.maxAttempts = b.maxAttempts;
        this.partSize = b.partSize;
        this.readAhead = b.readAhead;
        this.maxObjectBytes = b.maxObjectBytes;
        this.listTimeout = b.attemptTimeout.multipliedBy(b.maxAttempts + 1L);
        AwsCredentialsProvider credentials = b.accessKeyId != null
            ? StaticCredentialsProvider.create(AwsBasicCredentials.create(b.accessKeyId, b.secretAccessKey))
            : DefaultCredentialsProvider.builder().build();
        var builder = S3AsyncClient.builder()
            .region(Region.of(region))
            .credentialsProvider(credentials)
            .httpClientBuilder(NettyNioAsyncHttpClient.builder().maxConcurrency(b.maxConcurrency)
                .connectionTimeout(b.connectTimeout).readTimeout(b.attemptTimeout)
                .connectionAcquisitionTimeout(b.attemptTimeout.multipliedBy(b.maxAttempts)))
            .overrideConfiguration(ClientOverrideConfiguration.builder()
                .apiCallAttemptTimeout(b.attemptTimeout)
                .retryStrategy(AwsRetryStrategy.standardRetryStrategy().toBuilder().maxAttempts(b.maxAttempts)
                    .build())
                .build());
        if (b.endpoint != null) {
            builder.endpointOverride(b.endpoint).forcePathStyle(b.pathStyle == null || b.pathStyle);
        } else if (b.pathStyle != null) {
            builder.forcePathStyle(b.pathStyle);
        }
        this.client = builder.build();
        this.allocating = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("spdl4j-s3-alloc-", 0)
            .factory());
    }

    private static String resolveRegion(Builder b) {
        if (b.region != null) {
            return b.region;
        }
        if (b.endpoint != null) {
            return DEFAULT_COMPATIBLE_REGION;
        }
        try {
            return new DefaultAwsRegionProviderChain().getRegion().id();
        } catch (SdkClientException e) {
            throw new IllegalArgumentException("no AWS region for S3: give one (S3ObjectStore.Builder.region, "
                + "spdl4j run --region) or set AWS_REGION", e);
        }
    }

    /** {@return a builder with the defaults: AWS S3, the default region and credential chains} */
    public static Builder builder() {
        return new Builder();
    }

    /** {@return the endpoint override, or {@code null} for AWS S3} */
    public URI endpoint() {
        return endpoint;
    }

    /** {@return the region requests are signed for} */
    public String region() {
        return region;
    }

    int maxAttempts() {
        return maxAttempts;
    }

    /**
     * The samples under an S3 location, of the kind found there: tar shards when it holds shards ({@code .tar},
     * {@code .tar.gz}, {@code .tgz}, {@code .tar.zst}) and no images, else its images as whole objects
     * ({@link #objects(String)}).
     *
     * @param location {@code s3://bucket/prefix/}, or one shard's or object's key
     * @return the source
     * @throws S3StoreException when the listing fails (naming bucket, prefix and endpoint)
     * @throws IllegalArgumentException when the location holds neither shards nor images
     */
    public SampleSource source(String location) {
        return source(location, SampleSource.IMAGE_EXTENSIONS);
    }

    /**
     * The samples under an S3 location, as {@link #source(String)} finds them, taking objects with the given
     * extensions (video, audio) instead of images.
     *
     * @param location   {@code s3://bucket/prefix/}, or one shard's or object's key
     * @param extensions extensions of the objects to take, lower case without the dot
     * @return the source: tar shards when there are shards and no such objects, else those objects
     * @throws S3StoreException when the listing fails (naming bucket, prefix and endpoint)
     * @throws IllegalArgumentException when the location holds neither shards nor such objects
     */
    public SampleSource source(String location, Set<String> extensions) {
        S3Location at = S3Location.parse(location);
        List<S3Object> listed = list(at);
        List<S3Object> shards = listed.stream().filter(o -> ShardCompression.isShard(o.key())).toList();
        List<S3Object> media = withExtensions(listed, extensions);
        if (!shards.isEmpty() && media.isEmpty()) {
            return shardSource(at, shards);
        }
        if (media.isEmpty()) {
            throw new IllegalArgumentException(at + " at " + describeEndpoint() + ": " + listed.size()
                + " objects, none with extension " + String.join(", ", new TreeSet<>(extensions))
                + " nor a tar shard (.tar, .tar.gz, .tgz, .tar.zst)");
        }
        return objectSource(at, media);
    }

    /**
     * The images under an S3 location as whole objects, one sample each, in key order, sampled per rank and shuffled
     * per epoch like a folder: labelled by their class sub-prefix ({@code prefix/<class>/<file>}, classes sorted by
     * name) when every image has one, else unlabelled. Keys are the objects' URIs ({@code s3://bucket/key}).
     *
     * @param location {@code s3://bucket/prefix/}
     * @return the source
     * @throws S3StoreException when the listing fails
     * @throws IllegalArgumentException when there is no image there
     */
    public SampleSource objects(String location) {
        return objects(location, SampleSource.IMAGE_EXTENSIONS);
    }

    /**
     * The objects with the given extensions under an S3 location, as {@link #objects(String)} reads images.
     *
     * @param location   {@code s3://bucket/prefix/}
     * @param extensions extensions to take, lower case without the dot
     * @return the source
     * @throws S3StoreException when the listing fails
     * @throws IllegalArgumentException when there is no such object there
     */
    public SampleSource objects(String location, Set<String> extensions) {
        S3Location at = S3Location.parse(location);
        List<S3Object> found = withExtensions(list(at), extensions);
        if (found.isEmpty()) {
            throw new IllegalArgumentException(at + " at " + describeEndpoint() + ": no object with extension "
                + String.join(", ", new TreeSet<>(extensions)));
        }
        return objectSource(at, found);
    }

    /**
     * The WebDataset tar shards under an S3 location ({@code .tar}, {@code .tar.gz}, {@code .tgz}, {@code .tar.zst}),
     * in key order, streamed as {@link SampleSource#tarShards(List, org.spdl4j.engine.source.tar.ShardOpener)} reads
     * them: whole shards dealt to ranks, samples keyed {@code s3://bucket/shard@member}.
     *
     * @param location {@code s3://bucket/prefix/}, or one shard's key
     * @return the source
     * @throws S3StoreException when the listing fails
     * @throws IllegalArgumentException when there is no shard there
     */
    public SampleSource tarShards(String location) {
        S3Location at = S3Location.parse(location);
        List<S3Object> shards = list(at).stream().filter(o -> ShardCompression.isShard(o.key())).toList();
        if (shards.isEmpty()) {
            throw new IllegalArgumentException(at + " at " + describeEndpoint() + ": no tar shard (.tar, .tar.gz, "
                + ".tgz, .tar.zst)");
        }
        return shardSource(at, shards);
    }

    private SampleSource shardSource(S3Location at, List<S3Object> shards) {
        List<String> names = shards.stream().map(o -> at.objectUri(o.key()).toString()).toList();
        return SampleSource.tarShards(names, this);
    }

    private SampleSource objectSource(S3Location at, List<S3Object> objects) {
        List<String> classes = classes(at, objects);
        List<SampleEntry> entries = new ArrayList<>(objects.size());
        for (S3Object o : objects) {
            URI uri = at.objectUri(o.key());
            int label = classes.isEmpty() ? SampleEntry.NO_LABEL : classes.indexOf(classOf(at, o.key()));
            entries.add(new SampleEntry(uri.toString(), label, null, uri));
        }
        return SampleSource.objects(this, entries, at.toString());
    }

    /** The sorted class names when every object sits in a class sub-prefix, else an empty list. */
    private static List<String> classes(S3Location at, List<S3Object> objects) {
        TreeSet<String> names = new TreeSet<>();
        for (S3Object o : objects) {
            String cls = classOf(at, o.key());
            if (cls == null) {
                return List.of();
            }
            names.add(cls);
        }
        return List.copyOf(names);
    }

    private static String classOf(S3Location at, String key) {
        String rel = key.substring(Math.min(key.length(), directoryOf(at.prefix()).length()));
        int slash = rel.indexOf('/');
        return slash <= 0 ? null : rel.substring(0, slash);
    }

    /** The part of a prefix up to its last '/': the "folder" class sub-prefixes are relative to. */
    private static String directoryOf(String prefix) {
        int slash = prefix.lastIndexOf('/');
        return slash < 0 ? "" : prefix.substring(0, slash + 1);
    }

    private static List<S3Object> withExtensions(List<S3Object> objects, Set<String> extensions) {
        return objects.stream().filter(o -> {
            String k = o.key();
            int dot = k.lastIndexOf('.');
            return dot > k.lastIndexOf('/') && extensions.contains(k.substring(dot + 1).toLowerCase(Locale.ROOT));
        }).toList();
    }

    /**
     * Lists the objects under a location, in key order (ListObjectsV2, page by page); a location naming one object
     * exactly lists that object only.
     *
     * @param at the bucket and prefix
     * @return the objects (keys and sizes)
     * @throws S3StoreException when a page cannot be listed
     */
    List<S3Object> list(S3Location at) {
        List<S3Object> out = new ArrayList<>();
        String token = null;
        do {
            ListObjectsV2Request.Builder request = ListObjectsV2Request.builder().bucket(at.bucket())
                .prefix(at.prefix());
            if (token != null) {
                request.continuationToken(token);
            }
            ListObjectsV2Response page = join(client.listObjectsV2(request.build()), at.bucket(), at.prefix(),
                "LIST");
            for (S3Object o : page.contents()) {
                if (!o.key().endsWith("/")) {
                    out.add(o);
                }
            }
            token = Boolean.TRUE.equals(page.isTruncated()) ? page.nextContinuationToken() : null;
        } while (token != null);
        for (S3Object o : out) {
            if (o.key().equals(at.prefix())) {
                return List.of(o);
            }
        }
        return out;
    }

    private <R> R join(CompletableFuture<R> call, String bucket, String key, String request) {
        try {
            return call.get(listTimeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            call.cancel(true);
            Thread.currentThread().interrupt();
            throw new S3StoreException(request + " " + S3StoreException.where(bucket, key, endpoint)
                + " interrupted", 0, e);
        } catch (ExecutionException e) {
            throw S3Errors.of(e, bucket, key, endpoint, request, maxAttempts);
        } catch (java.util.concurrent.TimeoutException e) {
            call.cancel(true);
            throw new S3StoreException(request + " " + S3StoreException.where(bucket, key, endpoint) + " had no "
                + "answer within " + listTimeout + ": check the endpoint and the network", 0, e);
        }
    }

    @Override
    public CompletableFuture<Sample> read(URI object, SampleAllocator bytes) {
        S3Location at = S3Location.ofObject(object);
        PooledObjectRead read = new PooledObjectRead(object, bytes, allocating, maxObjectBytes);
        CompletableFuture<Sample> call = client.getObject(GetObjectRequest.builder().bucket(at.bucket())
            .key(at.prefix()).build(), read);
        call.whenComplete((sample, error) -> {
            if (error != null) {
                read.fail(S3Errors.of(error, at.bucket(), at.prefix(), endpoint, "GET", maxAttempts));
            } else {
                read.deliver(sample);
            }
        });
        read.result().whenComplete((s, e) -> {
            if (read.result().isCancelled()) {
                call.cancel(true);
            }
        });
        return read.result();
    }

    /**
     * Opens a shard as a stream of ranged GETs ({@link Builder#readAhead} in flight ahead of the reader).
     *
     * @param shard the shard's URI, {@code s3://bucket/key}
     * @return a seekable channel over the object's bytes
     * @throws IOException naming the shard and endpoint when its size cannot be had (no such object, access denied)
     */
    @Override
    public SeekableByteChannel open(String shard) throws IOException {
        S3Location at = S3Location.ofObject(URI.create(shard));
        long size;
        try {
            size = join(client.headObject(HeadObjectRequest.builder().bucket(at.bucket()).key(at.prefix()).build()),
                at.bucket(), at.prefix(), "HEAD").contentLength();
        } catch (S3StoreException e) {
            throw new IOException(e.getMessage(), e);
        }
        return new S3ShardChannel(client, this, at.bucket(), at.prefix(), size, partSize, readAhead);
    }

    @Override
    public String describe() {
        return "S3 at " + describeEndpoint() + " (region " + region + ")";
    }

    private String describeEndpoint() {
        return endpoint == null ? "AWS" : endpoint.toString();
    }

    @Override
    public String toString() {
        return describe();
    }

    /** Closes the client (its connections and threads) and the allocating executor. */
    @Override
    public void close() {
        try {
            client.close();
        } finally {
            allocating.shutdownNow();
        }
    }

    /**
     * Options of an {@link S3ObjectStore}, each with a default: AWS S3 in the default region chain's region
     * ({@code AWS_REGION}, the profile), credentials from the default chain (environment, system properties,
     * {@code ~/.aws}, container and instance roles).
     */
    public static final class Builder {
        private String region;
        private URI endpoint;
        private Boolean pathStyle;
        private String accessKeyId;
        private String secretAccessKey;
        private int maxConcurrency = DEFAULT_MAX_CONCURRENCY;
        private int maxAttempts = DEFAULT_MAX_ATTEMPTS;
        private Duration attemptTimeout = DEFAULT_ATTEMPT_TIMEOUT;
        private Duration connectTimeout = Duration.ofSeconds(10);
        private int partSize = DEFAULT_PART_SIZE;
        private int readAhead = DEFAULT_READ_AHEAD;
        private long maxObjectBytes = DEFAULT_MAX_OBJECT_BYTES;

        private Builder() {
        }

        /**
         * Sets the region (default: the SDK's region chain; {@code us-east-1} with an
         * endpoint override).
         *
         * @param awsRegion a region id, {@code eu-west-1}
         * @return this builder
         */
        public Builder region(String awsRegion) {
            this.region = Objects.requireNonNull(awsRegion, "awsRegion");
            return this;
        }

        /**
         * Sends requests to an S3-compatible store instead of AWS (MinIO, Ceph, S3Proxy); path-style addressing
         * unless {@link #pathStyle} says otherwise.
         *
         * @param url the endpoint, {@code http://127.0.0.1:9000}
         * @return this builder
         */
        public Builder endpoint(URI url) {
            this.endpoint = Objects.requireNonNull(url, "url");
            return this;
        }

        /**
         * Sets path-style addressing ({@code endpoint/bucket/key}) or virtual-host style ({@code bucket.endpoint/key});
         * default: path style with an endpoint override, the SDK's choice without.
         *
         * @param on whether to use path style
         * @return this builder
         */
        public Builder pathStyle(boolean on) {
            this.pathStyle = on;
            return this;
        }

        /**
         * Signs with these static credentials instead of the default chain.
         *
         * @param keyId  the access key id
         * @param secret the secret access key
         * @return this builder
         */
        public Builder credentials(String keyId, String secret) {
            this.accessKeyId = Objects.requireNonNull(keyId, "keyId");
            this.secretAccessKey = Objects.requireNonNull(secret, "secret");
            return this;
        }

        /**
         * Sets the most requests in flight on the store's connections (default 64);
         * a loader's {@code readConcurrency} bounds its object reads below that.
         *
         * @param n requests, at least 1
         * @return this builder
         */
        public Builder maxConcurrency(int n) {
            this.maxConcurrency = positive("maxConcurrency", n);
            return this;
        }

        /**
         * Sets the attempts per request, the first included (default 3): throttling, 5xx answers and timeouts are
         * retried with back-off.
         *
         * @param n attempts, at least 1
         * @return this builder
         */
        public Builder maxAttempts(int n) {
            this.maxAttempts = positive("maxAttempts", n);
            return this;
        }

        /**
         * Sets the deadline of one attempt of a request (default 30 s); also the idle read timeout of a connection.
         *
         * @param timeout a positive duration
         * @return this builder
         */
        public Builder attemptTimeout(Duration timeout) {
            this.attemptTimeout = positive("attemptTimeout", timeout);
            return this;
        }

        /**
         * Sets the connect timeout (default 10 s).
         *
         * @param timeout a positive duration
         * @return this builder
         */
        public Builder connectTimeout(Duration timeout) {
            this.connectTimeout = positive("connectTimeout", timeout);
            return this;
        }

        /**
         * Sets the bytes per ranged GET of a shard stream (default 8 MiB).
         *
         * @param bytes at least 64 KiB
         * @return this builder
         */
        public Builder partSize(int bytes) {
            if (bytes < 64 * 1024) {
                throw new IllegalArgumentException("partSize must be at least 64 KiB, got " + bytes);
            }
            this.partSize = bytes;
            return this;
        }

        /**
         * Sets the ranged GETs in flight ahead of a shard's reader (default 4; 1 reads one part at a time).
         *
         * @param parts at least 1
         * @return this builder
         */
        public Builder readAhead(int parts) {
            this.readAhead = positive("readAhead", parts);
            return this;
        }

        /**
         * Sets the largest object read as one sample (default 32 MiB, the loader pool's largest slab); a larger one
         * fails its sample, naming it.
         *
         * @param bytes at least 1
         * @return this builder
         */
        public Builder maxObjectBytes(long bytes) {
            if (bytes < 1) {
                throw new IllegalArgumentException("maxObjectBytes must be positive, got " + bytes);
            }
            this.maxObjectBytes = bytes;
            return this;
        }

        /**
         * {@return the store: its client is built now (no request is sent)}
         *
         * @throws IllegalArgumentException when no region is given nor found and there is no endpoint override
         */
        public S3ObjectStore build() {
            return new S3ObjectStore(this);
        }

        private static int positive(String what, int n) {
            if (n < 1) {
                throw new IllegalArgumentException(what + " must be at least 1, got " + n);
            }
            return n;
        }

        private static Duration positive(String what, Duration d) {
            if (d == null || d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException(what + " must be positive, got " + d);
            }
            return d;
        }
    }
}
