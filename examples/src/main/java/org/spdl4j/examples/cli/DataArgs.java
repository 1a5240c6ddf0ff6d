package org.spdl4j.examples.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.spdl4j.engine.source.EpochIterable;
import org.spdl4j.engine.source.FileItem;
import org.spdl4j.engine.source.FileListDataset;
import org.spdl4j.engine.source.FolderDataset;
import org.spdl4j.engine.source.IndexedDataset;
import org.spdl4j.engine.source.RankInfo;
import org.spdl4j.engine.source.RemainderPolicy;
import org.spdl4j.engine.source.SampledSource;
import org.spdl4j.examples.http.UrlList;
import org.spdl4j.examples.image.EpochFiles;
import org.spdl4j.examples.image.ImageFolder;
import org.spdl4j.examples.sample.SampleImages;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * Turns {@code --data} into this rank's images for some epochs: a folder (class sub-folders become labels; images
 * directly in it, without sub-folders, are one unlabelled class: {@link ImageFolder}), a list
 * file ({@code .txt}: one path per line, optional tab and label), a URL list (one http(s) URL per line, optional tab
 * and label: fetched by {@link org.spdl4j.examples.http.UrlImageLoader}), or nothing: the built-in sample, generated on first
 * use under {@code ~/.cache/spdl4j}. Ranks and world size come from RANK / WORLD_SIZE when set.
 */
final class DataArgs {
    /** Image file extensions a folder scan picks up. */
    static final Set<String> EXTENSIONS = ImageFolder.EXTENSIONS;

    private DataArgs() {
    }

    /**
     * The WebDataset shards {@code data} names: a {@code .tar} file, or a folder holding {@code .tar} files and no
     * images; else an empty list.
     */
    static java.util.List<Path> shards(Path data) {
        if (data == null) {
            return java.util.List.of();
        }
        if (Files.isRegularFile(data) && data.getFileName().toString().endsWith(".tar")) {
            return java.util.List.of(data);
        }
        if (Files.isDirectory(data)) {
            try (var files = Files.list(data)) {
                java.util.List<Path> tars = files.filter(p -> p.getFileName().toString().endsWith(".tar")).sorted()
                    .toList();
                if (!tars.isEmpty() && ImageFolder.scan(data).size() == 0) {
                    return tars;
                }
            } catch (java.io.IOException e) {
                return java.util.List.of();
            }
        }
        return java.util.List.of();
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

    /**
     * This rank's URLs of a list when {@code data} is one (first non-empty line an http(s) URL), entry {@code i} to
     * rank {@code i % worldSize}, in list order; else an empty list.
     */
    static java.util.List<UrlList.Entry> urls(CommandSpec spec, Path data, RankInfo rank) {
        if (data == null || !UrlList.isUrlList(data)) {
            return java.util.List.of();
        }
        final java.util.List<UrlList.Entry> all;
        try {
            all = UrlList.read(data);
        } catch (IllegalArgumentException | java.io.UncheckedIOException e) {
            throw new ParameterException(spec.commandLine(), "--data " + e.getMessage());
        }
        if (rank.worldSize() == 1) {
            return all;
        }
        java.util.List<UrlList.Entry> mine = new java.util.ArrayList<>();
        for (int i = rank.rank(); i < all.size(); i += rank.worldSize()) {
            mine.add(all.get(i));
        }
        return mine;
    }

    /** Where the built-in sample lives. */
    static Path samplePath(int images) {
        return Path.of(System.getProperty("user.home"), ".cache", "spdl4j", "sample-" + images);
    }

    /** What {@code run} reads, for the message when {@code --data} is none of it. */
    static final String RUN_ACCEPTS = "a folder of images, a .txt list of image paths or http(s) URLs, or WebDataset"
        + " .tar shards (a file or a folder of them)";
    /** What {@code tune} and {@code profile} read: image files, through the folder/list loader they measure. */
    static final String FILES_ACCEPT = "a folder of images or a .txt list of image paths";

    /**
     * The image files {@code tune} and {@code profile} measure: a folder or a list of paths. Tar shards and URL lists
     * run through other loaders, which these commands do not measure: refused as bad arguments.
     */
    static IndexedDataset<FileItem> imageFiles(CommandSpec spec, Path data, int sampleImages, java.io.PrintWriter err) {
        String command = spec.name();
        if (data != null && !shards(data).isEmpty()) {
            throw new ParameterException(spec.commandLine(), "--data " + data + ": " + command + " reads "
                + FILES_ACCEPT + ", not WebDataset .tar shards (spdl4j run reads those)");
        }
        if (data != null && UrlList.isUrlList(data)) {
            throw new ParameterException(spec.commandLine(), "--data " + data + ": " + command + " reads "
                + FILES_ACCEPT + ", not a URL list (spdl4j run fetches those)");
        }
        return dataset(spec, data, sampleImages, err, FILES_ACCEPT);
    }

    /**
     * The images of a folder or a list of paths, or the built-in sample.
     *
     * @param accepts what the command reads, for the message when {@code data} is something else
     */
    static IndexedDataset<FileItem> dataset(CommandSpec spec, Path data, int sampleImages, java.io.PrintWriter err,
                                            String accepts) {
        if (data == null) {
            Path dir = samplePath(sampleImages);
            if (!Files.exists(dir.resolve(".complete"))) {
                err.println("spdl4j: generating the built-in sample (" + sampleImages + " JPEGs) in " + dir);
                err.flush();
            }
            // in a child JVM: the memory generating takes is not counted in this run's peak RSS
            return FolderDataset.scan(SampleImages.ensureInChildJvm(dir, sampleImages), EXTENSIONS);
        }
        if (Files.isDirectory(data)) {
            FolderDataset folder = ImageFolder.scan(data);
            if (folder.size() == 0) {
                throw new ParameterException(spec.commandLine(), "--data " + data + ": no images ("
                    + ImageFolder.extensionList() + ") in it or in class sub-folders (" + data + "/<class>/<image>)");
            }
            return folder;
        }
        if (Files.isRegularFile(data) && data.getFileName().toString().endsWith(".txt")) {
            FileListDataset list = FileListDataset.read(data);
            if (list.size() == 0) {
                throw new ParameterException(spec.commandLine(), "--data " + data + ": no images in it (a .txt list"
                    + " has one image path or http(s) URL per line, optionally followed by a tab and a label)");
            }
            return list;
        }
        if (!Files.exists(data)) {
            throw new ParameterException(spec.commandLine(), "--data " + data + ": no such file or folder");
        }
        throw new ParameterException(spec.commandLine(), "--data " + data + ": expected " + accepts);
    }

    /** {@return this rank's items for {@code epochs} epochs, shuffled by {@code seed} and epoch, with their epochs} */
    static EpochFiles epochs(IndexedDataset<FileItem> dataset, RankInfo rank, long seed, boolean shuffle, int epochs) {
        SampledSource<FileItem> source = SampledSource.of(dataset, rank, seed, shuffle, RemainderPolicy.DROP);
        return EpochFiles.continuous(EpochIterable.of(source), epochs);
    }

    /** {@return how many items this rank gets per epoch} */
    static long perEpoch(IndexedDataset<FileItem> dataset, RankInfo rank, long seed) {
        return SampledSource.of(dataset, rank, seed, true, RemainderPolicy.DROP).epochLength();
    }
}
