package org.spdl4j.s3;

import java.io.IOException;
import java.net.URI;
import java.nio.channels.SeekableByteChannel;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.spdl4j.engine.source.Sample;
import org.spdl4j.engine.source.SampleAllocator;
import org.spdl4j.engine.source.http.EndpointBreaker;
import org.spdl4j.engine.source.tar.ShardCompression;
import org.spdl4j.loader.ObjectStore;
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
 * {@link S3ObjectStoreBuilder#maxConcurrency}), each body straight into one slab of the loader's pool. Shards stream on the
 * loader's source thread as ranged GETs, {@link S3ObjectStoreBuilder#readAhead} parts in flight ahead of the reader. Every request
 * has a per-attempt deadline ({@link S3ObjectStoreBuilder#attemptTimeout}) and bounded retries ({@link S3ObjectStoreBuilder#maxAttempts}, the
 * SDK's standard strategy: throttling and 5xx answers, with back-off). <b>Resume</b> is the loader's: objects are a
 * list (sorted keys) the loader opens at a position; a shard resumed inside skips whole members, by range for a plain
 * {@code .tar}, by reading through a compressed one.
 *
 * <p><b>Threading:</b> thread-safe. <b>Ownership:</b> owns the SDK client (its connections and event loop threads)
 * and an executor of virtual threads that allocate bodies' buffers; {@link #close()} after the loaders that use it.
 */
public final class S3ObjectStore implements ObjectStore, AutoCloseable {
    /** Requests in flight on the store's connections unless {@link S3ObjectStoreBuilder#maxConcurrency} sets another. */
    public static final int DEFAULT_MAX_CONCURRENCY = 64;
    /** Attempts per request (the first and its retries) unless {@link S3ObjectStoreBuilder#maxAttempts} sets another. */
    public static final int DEFAULT_MAX_ATTEMPTS = 3;
    /** Deadline of one attempt unless {@link S3ObjectStoreBuilder#attemptTimeout} sets another. */
    public static final Duration DEFAULT_ATTEMPT_TIMEOUT = Duration.ofSeconds(30);
    /** Bytes per ranged GET of a shard stream unless {@link S3ObjectStoreBuilder#partSize} sets another. */
    public static final int DEFAULT_PART_SIZE = 8 * 1024 * 1024;
    /** Ranged GETs in flight ahead of a shard's reader unless {@link S3ObjectStoreBuilder#readAhead} sets another. */
    public static final int DEFAULT_READ_AHEAD = 4;
    /** The largest object read as one sample unless {@link S3ObjectStoreBuilder#maxObjectBytes} sets another. */
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
    /** The store's one endpoint: its requests fail at once while it is open. */
    private final EndpointBreaker breaker;

    S3ObjectStore(S3ObjectStoreBuilder b) {
        this.endpoint = b.endpoint;
        this.region = resolveRegion(b);
        this.maxAttempts = b.maxAttempts;
        this.partSize = b.partSize;
        this.readAhead = b.readAhead;
        this.maxObjectBytes = b.maxObjectBytes;
        this.listTimeout = b.attemptTimeout.multipliedBy(b.maxAttempts + 1L);
        this.breaker = new EndpointBreaker(describeEndpoint(), b.circuitBreaker, InstantSource.system());
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

    private static String resolveRegion(S3ObjectStoreBuilder b) {
        if (b.region != null) {
            return b.region;
        }
        if (b.endpoint != null) {
            return DEFAULT_COMPATIBLE_REGION;
        }
        try {
            return new DefaultAwsRegionProviderChain().getRegion().id();
        } catch (SdkClientException e) {
            throw new IllegalArgumentException("no AWS region for S3: give one (S3ObjectStoreBuilder.region, "
                + "spdl4j run --region) or set AWS_REGION", e);
        }
    }

    /** {@return a builder with the defaults: AWS S3, the default region and credential chains} */
    public static S3ObjectStoreBuilder builder() {
        return new S3ObjectStoreBuilder();
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
        List<S3Object> media = S3Listing.withExtensions(listed, extensions);
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
        List<S3Object> found = S3Listing.withExtensions(list(at), extensions);
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
        return SampleSource.objects(this, S3Listing.entries(at, objects), at.toString());
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
        EndpointBreaker.Admission admission = breaker.admit();
        if (admission == EndpointBreaker.Admission.REFUSED) {
            return CompletableFuture.failedFuture(new S3StoreException("GET " + S3StoreException.where(at.bucket(),
                at.prefix(), endpoint) + " not sent: " + breaker.describeOpen(), 0, null));
        }
        PooledObjectRead read = new PooledObjectRead(object, bytes, allocating, maxObjectBytes);
        CompletableFuture<Sample> call = client.getObject(GetObjectRequest.builder().bucket(at.bucket())
            .key(at.prefix()).build(), read);
        call.whenComplete((sample, error) -> {
            if (error != null) {
                RuntimeException e = S3Errors.of(error, at.bucket(), at.prefix(), endpoint, "GET", maxAttempts);
                if (e instanceof S3StoreException s3) {
                    judge(admission, s3);
                } else {
                    breaker.abandoned(admission); // cancelled: says nothing of the endpoint
                }
                read.fail(e);
            } else {
                breaker.succeeded(admission);
                read.deliver(sample);
            }
        });
        read.result().whenComplete((s, e) -> {
            if (read.result().isCancelled()) {
                call.cancel(true);
                breaker.abandoned(admission);
            }
        });
        return read.result();
    }

    /** A failed request: one without an answer or with a 5xx counts against the endpoint; any other shows it alive. */
    private void judge(EndpointBreaker.Admission admission, S3StoreException e) {
        int status = e.statusCode();
        if (status == 0 || status >= 500) {
            breaker.failed(admission, e.getMessage());
        } else {
            breaker.succeeded(admission);
        }
    }

    /**
     * Opens a shard as a stream of ranged GETs ({@link S3ObjectStoreBuilder#readAhead} in flight ahead of the reader).
     *
     * @param shard the shard's URI, {@code s3://bucket/key}
     * @return a seekable channel over the object's bytes
     * @throws IOException naming the shard and endpoint when its size cannot be had (no such object, access denied)
     */
    @Override
    public SeekableByteChannel open(String shard) throws IOException {
        S3Location at = S3Location.ofObject(URI.create(shard));
        EndpointBreaker.Admission admission = breaker.admit();
        if (admission == EndpointBreaker.Admission.REFUSED) {
            throw new IOException("HEAD " + S3StoreException.where(at.bucket(), at.prefix(), endpoint) + " not sent: "
                + breaker.describeOpen());
        }
        long size;
        try {
            size = join(client.headObject(HeadObjectRequest.builder().bucket(at.bucket()).key(at.prefix()).build()),
                at.bucket(), at.prefix(), "HEAD").contentLength();
            breaker.succeeded(admission);
        } catch (S3StoreException e) {
            judge(admission, e);
            throw new IOException(e.getMessage(), e);
        } catch (RuntimeException | Error e) {
            breaker.abandoned(admission);
            throw e;
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
}
