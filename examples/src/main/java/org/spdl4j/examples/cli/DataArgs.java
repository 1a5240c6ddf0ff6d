package org.spdl4j.examples.cli;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.spdl4j.engine.source.FileItem;
import org.spdl4j.engine.source.FileListDataset;
import org.spdl4j.engine.source.FolderDataset;
import org.spdl4j.engine.source.IndexedDataset;
import org.spdl4j.engine.source.RankInfo;
import org.spdl4j.examples.sample.SampleImages;
import org.spdl4j.engine.source.tar.HttpShardOpener;
import org.spdl4j.engine.source.tar.ShardCompression;
import org.spdl4j.loader.SampleMix;
import org.spdl4j.loader.SampleSource;
import org.spdl4j.s3.S3Location;
import org.spdl4j.s3.S3ObjectStore;
import org.spdl4j.s3.S3StoreException;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * Turns {@code --data} into a loader's {@link SampleSource}: a folder ({@link SampleSource#folder}: class sub-folders
 * become labels; files directly in it, without sub-folders, are one unlabelled class), a {@code .txt} list of paths or
 * of http(s) URLs ({@link SampleSource#list}: each line optionally followed by a tab and a label), WebDataset
 * tar shards ({@link SampleSource#tarShards}: a file, or a folder of them with no media files; {@code .tar},
 * {@code .tar.gz}, {@code .tar.zst}), an S3 location ({@code s3://bucket/prefix/}: its objects or its tar shards,
 * {@link S3ObjectStore}), or nothing:
 * the built-in sample, generated on first use under {@code ~/.cache/spdl4j}. Ranks come from RANK / WORLD_SIZE.
 *
 * <p>What is not a source is a bad argument (exit status 2), refused before anything runs.
 */
final class DataArgs {
    /** What {@code run} reads, for the message when {@code --data} is none of it. */
    static final String RUN_ACCEPTS = "a folder, a .txt list of paths or http(s) URLs, WebDataset tar shards (a"
        + " .tar, .tar.gz or .tar.zst file or a folder of them), or s3://bucket/prefix/";
    /** What {@code tune} and {@code profile} read. */
    static final String FILES_ACCEPT = "a folder of images or a .txt list of image paths";

    private DataArgs() {
    }

    /** What kind of data a run reads. */
    enum Kind {
        /** The built-in sample (a folder). */
        SAMPLE,
        /** A folder. */
        FOLDER,
        /** A list of local paths. */
        PATH_LIST,
        /** A list of http(s) URLs. */
        URL_LIST,
        /** WebDataset tar shards. */
        TAR_SHARDS,
        /** Whole objects of an S3 location. */
        S3_OBJECTS,
        /** WebDataset tar shards of an S3 location. */
        S3_SHARDS,
        /** A weighted mixture of local sources ({@code --mix}). */
        MIXTURE
    }

    /**
     * What {@code run} reads.
     *
     * @param source  the loader's source
     * @param kind    its kind
     * @param samples samples in the whole dataset (every rank's), or -1 when unknown before reading (tar shards)
     * @param shards  tar shards, 0 for other kinds
     */
    record RunData(SampleSource source, Kind kind, long samples, int shards) {
        /**
         * {@return samples per epoch for a rank (lists drop the remainder so that every rank has as many), or -1}
         *
         * @param rank the rank
         */
        long perEpoch(RankInfo rank) {
            return source.samplesPerEpoch(rank);
        }
    }

    /**
     * This process's rank from RANK / WORLD_SIZE ({@link RankInfo#SINGLE} when neither is set).
     *
     * @throws ParameterException naming the variables when they are bad: a bad environment is a bad argument
     */
    static RankInfo rank(CommandSpec spec) {
        try {
            return RankInfo.fromEnvironment();
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage() + " (as torchrun sets them; unset both"
                + " to read all the data in one process)");
        }
    }

    /** Where the built-in sample lives. */
    static Path samplePath(int images) {
        return Path.of(System.getProperty("user.home"), ".cache", "spdl4j", "sample-" + images);
    }

    /**
     * The source {@code run} reads.
     *
     * @param spec         the command, for errors
     * @param data         {@code --data}, or {@code null} for the built-in sample
     * @param media        what a sample is: which files a folder holds
     * @param sampleImages the built-in sample's size
     * @param err          where the sample's generation is announced
     * @return the data
     * @throws ParameterException when {@code data} is not a source of {@code media}
     */
    static RunData runData(CommandSpec spec, Path data, MediaOption media, int sampleImages, PrintWriter err) {
        if (data == null) {
            if (media != MediaOption.image) {
                throw new ParameterException(spec.commandLine(), "--media " + media + " needs --data (a folder, list"
                    + " or tar shards of " + String.join(", ", new TreeSet<>(media.extensions()))
                    + " files); the built-in sample is images");
            }
            SampleSource sample = SampleSource.folder(sample(sampleImages, err));
            return new RunData(sample, Kind.SAMPLE, sample.size(), 0);
        }
        try {
            if (Files.isDirectory(data)) {
                SampleSource folder;
                try {
                    folder = SampleSource.folder(data, media.extensions()); // scans the folder, once
                } catch (IllegalArgumentException noFiles) {
                    List<Path> shards = SampleSource.shardFiles(data);
                    if (!shards.isEmpty()) {
                        return new RunData(SampleSource.tarShards(shards), Kind.TAR_SHARDS, -1, shards.size());
                    }
                    throw new ParameterException(spec.commandLine(), "--data " + data + ": no " + media.unit() + " ("
                        + String.join(", ", new TreeSet<>(media.extensions())) + ") in it or in class sub-folders ("
                        + data + "/<class>/<file>), and no tar shards (.tar, .tar.gz, .tar.zst)");
                }
                return new RunData(folder, Kind.FOLDER, folder.size(), 0);
            }
            if (Files.isRegularFile(data) && !SampleSource.shardFiles(data).isEmpty()) {
                return new RunData(SampleSource.tarShards(data), Kind.TAR_SHARDS, -1, 1);
            }
            if (Files.isRegularFile(data) && data.getFileName().toString().endsWith(".txt")) {
                List<String> shardUrls = shardUrls(data);
                if (!shardUrls.isEmpty()) { // every line an http(s) URL of a tar shard: shards, streamed by GET
                    return new RunData(SampleSource.tarShards(shardUrls, HttpShardOpener.defaults()),
                        Kind.TAR_SHARDS, -1, shardUrls.size());
                }
                SampleSource list = SampleSource.list(data);
                return new RunData(list, SampleSource.isUrlList(data) ? Kind.URL_LIST : Kind.PATH_LIST, list.size(),
                    0);
            }
        } catch (IllegalArgumentException | UncheckedIOException e) { // a bad list line, an unreadable file or folder
            String why = String.valueOf(e.getMessage());
            throw new ParameterException(spec.commandLine(), "--data " + (why.startsWith(data.toString()) ? why
                : data + ": " + why));
        }
        if (!Files.exists(data)) {
            throw new ParameterException(spec.commandLine(), "--data " + data + ": no such file or folder");
        }
        throw new ParameterException(spec.commandLine(), "--data " + data + ": expected " + RUN_ACCEPTS);
    }

    /**
     * A weighted mixture of local sources: {@code --mix PATH=WEIGHT}, each path read as {@code --data} reads it.
     *
     * @param spec            the command, for errors
     * @param parts           each {@code PATH=WEIGHT}
     * @param samplesPerEpoch {@code --samples-per-epoch}, or {@code null}: epochs end where a part runs out
     * @param media           what a sample is
     * @param classes         {@code --classes}: the class list of the tar-shard parts, or {@code null}
     * @return the data
     * @throws ParameterException when a part is not {@code PATH=WEIGHT}, not a source, or the parts do not mix
     */
    static RunData mixData(CommandSpec spec, List<String> parts, Long samplesPerEpoch, MediaOption media,
                           Path classes) {
        SampleMix mix = SampleSource.mix();
        int shards = 0;
        for (String part : parts) {
            int eq = part.lastIndexOf('=');
            double weight;
            try {
                weight = eq < 0 ? Double.NaN : Double.parseDouble(part.substring(eq + 1));
            } catch (NumberFormatException e) {
                weight = Double.NaN;
            }
            if (!(weight > 0) || Double.isInfinite(weight)) {
                throw new ParameterException(spec.commandLine(), "--mix " + part + ": give PATH=WEIGHT, a weight"
                    + " above 0 (--mix train=3 --mix extra=1: three of train to one of extra)");
            }
            String path = part.substring(0, eq);
            if (S3Location.isS3(path)) {
                throw new ParameterException(spec.commandLine(), "--mix " + part + ": mixes local data (folders,"
                    + " lists, tar shards); s3:// data runs with --data");
            }
            RunData one = runData(spec, Path.of(path), media, 0, null);
            if (classes != null && one.kind() == Kind.TAR_SHARDS) {
                one = withClasses(spec, one, classes);
            }
            shards += one.shards();
            mix.add(one.source(), weight);
        }
        if (classes != null && shards == 0) {
            throw new ParameterException(spec.commandLine(), "--classes " + classes + ": labels the .cls members of"
                + " tar shards; no --mix part is tar shards");
        }
        try {
            if (samplesPerEpoch != null) {
                mix.samplesPerEpoch(samplesPerEpoch);
            }
            SampleSource source = mix.build();
            return new RunData(source, Kind.MIXTURE, source.size(), shards);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--mix: " + e.getMessage());
        }
    }

    /** {@return the lines of a list when every one is an http(s) URL of a tar shard, else an empty list} */
    private static List<String> shardUrls(Path list) {
        List<String> lines;
        try {
            lines = Files.readAllLines(list);
        } catch (java.io.IOException e) {
            throw new UncheckedIOException(list + ": " + e.getMessage(), e);
        }
        List<String> urls = new java.util.ArrayList<>();
        for (String line : lines) {
            String url = line.strip();
            if (url.isEmpty() || url.startsWith("#")) {
                continue;
            }
            String lower = url.toLowerCase(java.util.Locale.ROOT);
            boolean shard = lower.endsWith(".tar") || ShardCompression.of(lower) != null;
            if (!(lower.startsWith("http://") || lower.startsWith("https://")) || !shard) {
                return List.of();
            }
            urls.add(url);
        }
        return urls;
    }

    /**
     * Tar shards with {@code --interleave}: several of a rank's shards read at once, their samples in turn.
     *
     * @param spec    the command, for errors
     * @param runData what {@code --data} gave
     * @param n       shards read at once
     * @return the data read so
     * @throws ParameterException when the data is not tar shards or {@code n < 1}
     */
    static RunData interleaved(CommandSpec spec, RunData runData, int n) {
        if (runData.kind() != Kind.TAR_SHARDS && runData.kind() != Kind.S3_SHARDS) {
            throw new ParameterException(spec.commandLine(), "--interleave " + n + ": reads several tar shards at"
                + " once; --data is " + runData.source().describe());
        }
        if (n < 1) {
            throw new ParameterException(spec.commandLine(), "--interleave " + n + ": give 1 or more shards");
        }
        return new RunData(runData.source().interleave(n), runData.kind(), runData.samples(), runData.shards());
    }

    /**
     * Tar shards with {@code --classes}: their {@code .cls} class names labelled by the file's list.
     *
     * @param spec    the command, for errors
     * @param runData what {@code --data} gave
     * @param classes the class list file
     * @return the data with the class list
     * @throws ParameterException when the data is not tar shards or the file is not a class list
     */
    static RunData withClasses(CommandSpec spec, RunData runData, Path classes) {
        if (runData.kind() != Kind.TAR_SHARDS && runData.kind() != Kind.S3_SHARDS) {
            throw new ParameterException(spec.commandLine(), "--classes " + classes + ": a class list labels the .cls"
                + " members of tar shards; --data is " + runData.source().describe() + " (a folder's classes are its"
                + " sub-folders, a list's labels are written in it)");
        }
        try {
            return new RunData(runData.source().classes(classes), runData.kind(), runData.samples(), runData.shards());
        } catch (IllegalArgumentException | UncheckedIOException e) {
            String why = String.valueOf(e.getMessage());
            throw new ParameterException(spec.commandLine(), "--classes " + (why.contains(classes.toString()) ? why
                : classes + ": " + why));
        }
    }

    /**
     * The source {@code run} reads from an S3 location: its tar shards, or its objects of the media's extensions.
     *
     * @param spec     the command, for errors
     * @param location {@code s3://bucket/prefix/}
     * @param store    the store (its endpoint, region and credentials)
     * @param media    what a sample is
     * @return the data
     * @throws ParameterException when the location cannot be listed or holds nothing to load; the message names
     *                            the bucket, prefix and endpoint and says what to check
     */
    static RunData s3Data(CommandSpec spec, String location, S3ObjectStore store, MediaOption media) {
        try {
            SampleSource source = store.source(location, media.extensions());
            boolean shards = source.size() < 0;
            return new RunData(source, shards ? Kind.S3_SHARDS : Kind.S3_OBJECTS, source.size(), 0);
        } catch (IllegalArgumentException | S3StoreException e) {
            throw new ParameterException(spec.commandLine(), "--data " + location + ": " + e.getMessage());
        }
    }

    /**
     * The image files {@code tune} and {@code profile} measure: a folder or a list of paths, or the built-in sample.
     * Tar shards and URL lists are refused as bad arguments: those commands measure reads of local files.
     */
    static IndexedDataset<FileItem> imageFiles(CommandSpec spec, Path data, int sampleImages, PrintWriter err) {
        String command = spec.name();
        if (data == null) {
            return files(sample(sampleImages, err), SampleSource.IMAGE_EXTENSIONS);
        }
        if (!SampleSource.shardFiles(data).isEmpty()
                && (!Files.isDirectory(data) || files(data, SampleSource.IMAGE_EXTENSIONS).size() == 0)) {
            throw new ParameterException(spec.commandLine(), "--data " + data + ": " + command + " reads "
                + FILES_ACCEPT + ", not WebDataset .tar shards (spdl4j run reads those)");
        }
        if (Files.isRegularFile(data) && SampleSource.isUrlList(data)) {
            throw new ParameterException(spec.commandLine(), "--data " + data + ": " + command + " reads "
                + FILES_ACCEPT + ", not a URL list (spdl4j run fetches those)");
        }
        if (Files.isDirectory(data)) {
            FolderDataset folder = files(data, SampleSource.IMAGE_EXTENSIONS);
            if (folder.size() == 0) {
                throw new ParameterException(spec.commandLine(), "--data " + data + ": no images ("
                    + String.join(", ", new TreeSet<>(SampleSource.IMAGE_EXTENSIONS))
                    + ") in it or in class sub-folders (" + data + "/<class>/<image>)");
            }
            return folder;
        }
        if (Files.isRegularFile(data) && data.getFileName().toString().endsWith(".txt")) {
            FileListDataset list = FileListDataset.read(data);
            if (list.size() == 0) {
                throw new ParameterException(spec.commandLine(), "--data " + data + ": no images in it (a .txt list"
                    + " has one image path per line, optionally followed by a tab and a label)");
            }
            return list;
        }
        if (!Files.exists(data)) {
            throw new ParameterException(spec.commandLine(), "--data " + data + ": no such file or folder");
        }
        throw new ParameterException(spec.commandLine(), "--data " + data + ": expected " + FILES_ACCEPT);
    }

    /**
     * The files of a folder as {@link SampleSource#folder(Path, Set)} finds them: its class sub-folders' files, else
     * the files directly in it: what {@code tune}, {@code profile} and {@code soak} measure.
     *
     * @param root       the folder
     * @param extensions the extensions to take
     * @return the files, possibly none
     */
    static FolderDataset files(Path root, Set<String> extensions) {
        FolderDataset classes = FolderDataset.scan(root, extensions);
        return classes.size() > 0 ? classes : FolderDataset.scanFlat(root, extensions);
    }

    /** The built-in sample, generated first if needed (in a child JVM: its memory is not this run's peak RSS). */
    private static Path sample(int images, PrintWriter err) {
        Path dir = samplePath(images);
        if (!Files.exists(dir.resolve(".complete"))) {
            err.println("spdl4j: generating the built-in sample (" + images + " JPEGs) in " + dir);
            err.flush();
        }
        return SampleImages.ensureInChildJvm(dir, images);
    }
}
