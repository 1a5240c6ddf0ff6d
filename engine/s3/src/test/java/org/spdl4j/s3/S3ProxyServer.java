package org.spdl4j.s3;

import java.net.URI;
import java.time.Duration;
import java.util.Properties;
import org.gaul.s3proxy.BlobStores;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.blobstore.BlobStore;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3AsyncClient;

/**
 * A real S3-compatible server for the tests: S3Proxy in this JVM on a loopback port (Jetty), its in-memory
 * ("transient") backend, AWS signature checks on (v2 or v4) for one key pair. Plus a plain SDK client with the right
 * credentials that creates buckets and writes objects.
 */
public final class S3ProxyServer implements AutoCloseable {
    public static final String KEY_ID = "spdl4j-test-key";
    public static final String SECRET = "spdl4j-test-secret-0123456789";

    private final S3Proxy proxy;
    private final BlobStore blobs;
    private final URI endpoint;
    private final S3AsyncClient writer;

    public S3ProxyServer() throws Exception {
        Properties p = new Properties();
        p.setProperty("s3proxy.endpoint", "http://127.0.0.1:0");
        p.setProperty("s3proxy.authorization", "aws-v2-or-v4");
        p.setProperty("s3proxy.identity", KEY_ID);
        p.setProperty("s3proxy.credential", SECRET);
        p.setProperty("jclouds.provider", "transient-nio2");
        p.setProperty("jclouds.identity", KEY_ID);
        p.setProperty("jclouds.credential", SECRET);
        blobs = BlobStores.create("transient-nio2", p);
        proxy = S3Proxy.Builder.fromProperties(p).blobStore(blobs).build();
        proxy.start();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!"STARTED".equals(proxy.getState())) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("S3Proxy did not start: " + proxy.getState());
            }
            Thread.sleep(10);
        }
        endpoint = URI.create("http://127.0.0.1:" + proxy.getPort());
        writer = S3AsyncClient.builder().endpointOverride(endpoint).forcePathStyle(true).region(Region.US_EAST_1)
            .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(KEY_ID, SECRET)))
            .build();
    }

    public URI endpoint() {
        return endpoint;
    }

    /** {@return a store builder for this server with the right credentials} */
    public S3ObjectStoreBuilder store() {
        return S3ObjectStore.builder().endpoint(endpoint).credentials(KEY_ID, SECRET);
    }

    public void createBucket(String bucket) {
        writer.createBucket(b -> b.bucket(bucket)).join();
    }

    public void put(String bucket, String key, byte[] bytes) {
        writer.putObject(b -> b.bucket(bucket).key(key), AsyncRequestBody.fromBytes(bytes)).join();
    }

    @Override
    public void close() {
        try {
            writer.close();
            proxy.stop();
        } catch (Exception e) {
            throw new IllegalStateException("S3Proxy did not stop", e);
        } finally {
            blobs.close();
        }
    }
}
