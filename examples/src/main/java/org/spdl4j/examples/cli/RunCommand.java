package org.spdl4j.examples.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import org.spdl4j.cuda.CudaConfiguration;
import org.spdl4j.cuda.Device;
import org.spdl4j.cuda.DeviceBatch;
import org.spdl4j.cuda.DeviceTransfer;
import org.spdl4j.engine.PipelineFailedException;
import org.spdl4j.engine.source.RankInfo;
import org.spdl4j.engine.stats.PipelineSnapshot;
import org.spdl4j.engine.stats.PipelineStats;
import org.spdl4j.engine.stats.StageHistogramLogWriter;
import org.spdl4j.engine.stats.StatsTable;
import org.spdl4j.engine.tune.TunerSettings;
import org.spdl4j.examples.report.TaskTrace;
import org.spdl4j.examples.report.TracingSlotDecoder;
import org.spdl4j.loader.Loader;
import org.spdl4j.loader.LoaderBuilder;
import org.spdl4j.loader.LoaderState;
import org.spdl4j.s3.S3Location;
import org.spdl4j.s3.S3ObjectStore;
import org.spdl4j.s3.S3ObjectStoreBuilder;
import org.spdl4j.loader.internal.IoMessages;
import org.spdl4j.offheap.batch.Batch;
import org.spdl4j.offheap.batch.SlotDecoder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code spdl4j run}: the library's {@link Loader} over the built-in sample or {@code --data} (a folder, a list of
 * paths or URLs, tar shards), decoding images (short side 256, centre crop 224, or with {@code --augment} a random
 * resized crop 224 + flip), video or audio clips ({@link MediaOption}) into batches, with a live progress line, a
 * per-stage table at the end, and with {@code --report} an HTML page with SVG plots, {@code .hlog} interval logs and a
 * Perfetto trace of the decode tasks. {@code --device auto|host|gpu} adds the loader's transfer stage
 * ({@link DeviceTransfer}, batch memory from the device's host allocator); the consumer waits for each copy.
 * {@code --state FILE} resumes from and saves the loader's state, {@code --keys FILE} logs each delivered sample,
 * {@code --max-batches K} stops early; SIGINT and SIGTERM end the run as a normal end does ({@link SignalStop}).
 * {@code --max-failures} ({@link MaxFailures}) is each stage's failure budget: once spent, the run ends as on a signal
 * (summary, keys, state) and exits with status 1 naming the stage, its first and last failures.
 */
@Command(name = "run", mixinStandardHelpOptions = true,
    description = "Run the loader over your data and show where the time goes.")
final class RunCommand implements Callable<Integer> {
    /** {@code --task-timeout}'s default, in seconds: far above any sane image or clip, short of a hung run. */
    static final int DEFAULT_TASK_TIMEOUT_SECONDS = 60;

    @Spec
    CommandSpec spec;

    @Mixin
    PipelineArgs pipelineArgs;

    @Option(names = "--data", paramLabel = "PATH",
        description = "a folder (class sub-folders = labels, or files directly in it), a .txt list of paths or of"
            + " http(s) URLs (each optionally followed by a tab and a label), tar shards (.tar, .tar.gz, .tar.zst: a"
            + " file or a folder of them), or s3://bucket/prefix/ (its objects, or its tar shards); default:"
            + " built-in sample of images")
    String data;

    @Option(names = "--mix", paramLabel = "PATH=WEIGHT", description = "instead of --data: a weighted mixture of local"
        + " data (each PATH as --data reads it), repeated for each part; every stretch of an epoch holds the parts in"
        + " proportion (--mix a=3 --mix b=1: three of a to one of b); an epoch ends where a part runs out, unless"
        + " --samples-per-epoch is given. Each part keeps its labels (a folder's sub-folders are 0, 1, ... in each"
        + " part); --classes labels its tar-shard parts")
    List<String> mix;

    @Option(names = "--samples-per-epoch", paramLabel = "N", description = "with --mix: N samples per epoch (all ranks);"
        + " a part that runs out starts over in a new order (up-sampled)")
    Long samplesPerEpoch;

    @Option(names = "--endpoint", paramLabel = "URL", description = "with s3:// data: an S3-compatible store's"
        + " endpoint (MinIO, Ceph, ...; path-style requests); default: AWS. Credentials: the AWS default chain"
        + " (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, AWS_PROFILE, ~/.aws, instance roles)")
    URI endpoint;

    @Option(names = "--region", paramLabel = "REGION", description = "with s3:// data: the bucket's region (default:"
        + " AWS_REGION or the profile's; us-east-1 with --endpoint)")
    String region;

    @Option(names = "--classes", paramLabel = "FILE", description = "tar shards whose .cls members hold class names"
        + " (e.g. class00): one class name per line, the first is label 0, the same in every shard, rank and resumed"
        + " run; without it names are labelled in the order this run first sees them")
    Path classesFile;

    @Option(names = "--interleave", paramLabel = "N", description = "tar shards: read N of this rank's shards at once,"
        + " taking their samples in turn (a batch of shards written in class order then holds N shards' classes)")
    Integer interleave;

    @Option(names = "--media", paramLabel = "KIND", defaultValue = "image",
        description = "image (default: [224, 224, 3] uint8), video (8 frames of 112x112 RGB per clip: [8, 112, 112, 3]"
            + " uint8) or audio (1 s of 16 kHz mono: [1, 16000] float32); a folder is read for that media's files")
    MediaOption media;

    @Option(names = "--images", paramLabel = "N", defaultValue = "1024",
        description = "size of the built-in sample (default ${DEFAULT-VALUE})")
    int sampleImages;

    @Option(names = "--epochs", paramLabel = "N", defaultValue = "1", description = "epochs (default ${DEFAULT-VALUE})")
    int epochs;

    @Option(names = "--seed", paramLabel = "N",
        description = "seed of the per-epoch shuffle (tar shards: of the shard order) and of --augment's crops"
            + " (default 0; a run resumed with --state takes the saved one)")
    Long seed;

    @Option(names = "--no-shuffle", description = "keep the data's order (a tar folder's shard order)")
    boolean noShuffle;

    @Option(names = "--epoch-aligned", description = "no batch holds two epochs: each epoch ends with its own last"
        + " batch (as a PyTorch DataLoader epoch does)")
    boolean epochAligned;

    @Option(names = "--max-batches", paramLabel = "K", description = "stop after K batches")
    Long maxBatches;

    @Option(names = "--read-timeout", paramLabel = "SECONDS", description = "fail a file read that takes longer (a hung"
        + " mount, a FIFO): that sample is skipped and counted, the run goes on (default 60)")
    Double readTimeoutSeconds;

    @Option(names = "--task-timeout", paramLabel = "SECONDS", description = "fail a decode that takes longer (a"
        + " pathological file): that sample is skipped and counted on the decode stage, the run goes on (default "
        + DEFAULT_TASK_TIMEOUT_SECONDS + ")")
    Double taskTimeoutSeconds;

    @Option(names = "--max-failures", paramLabel = "N|P%", defaultValue = MaxFailures.DEFAULT,
        description = "stop the run when a stage (read or decode) has failed more samples than this: a count (e.g."
            + " 10) or a percentage of the samples the stage took (a number and a percent sign, judged from its 100th"
            + " sample on); the summary is printed, --state and --keys are saved, and the exit status is 1 (default:"
            + " 5 percent)")
    String maxFailuresText;

    @Option(names = "--state", paramLabel = "FILE", description = "resume from the loader state in FILE when it"
        + " exists (its seed and rank are the run's); write the state there when the run ends (also by --max-batches,"
        + " SIGINT or SIGTERM)")
    Path stateFile;

    @Option(names = "--resume-from", paramLabel = "FILE", split = ",", description = "resume a run saved on another"
        + " number of ranks: every saved rank's --state file, comma-separated; this run's rank comes from RANK /"
        + " WORLD_SIZE, and what the saved ranks had not delivered of their epoch is dealt to the new ranks (folders"
        + " and lists); this run's own state goes to --state")
    List<Path> resumeFrom;

    /** Every saved rank's state, when resuming on another number of ranks ({@code --resume-from}). */
    private List<LoaderState> resumeAll;

    @Option(names = "--keys", paramLabel = "FILE", description = "write each delivered sample's key and label,"
        + " tab-separated, one per line, in delivery order")
    Path keysFile;

    @Option(names = "--report", paramLabel = "DIR", description = "write an HTML report with plots, .hlog and trace")
    Path report;

    @Option(names = "--interval-ms", paramLabel = "MS", defaultValue = "500",
        description = "stats sampling interval (default ${DEFAULT-VALUE})")
    int intervalMs;

    @Option(names = "--no-progress", description = "no live progress line")
    boolean noProgress;

    @Option(names = "--live", description = "the progress line also names the stage that limits the run now and its"
        + " p99 task time")
    boolean live;

    @Option(names = "--autotune", description = "move decode threads and reads in flight while the run goes on, from"
        + " the stages' live stats, within --cpu-budget and --memory-budget; each change is printed with its reason,"
        + " and the configuration it settles on is written to --autotune-out (read back with --config)")
    boolean autotune;

    @Option(names = "--cpu-budget", paramLabel = "N", description = "--autotune: most decode threads at once"
        + " (default: the cores available)")
    Integer cpuBudget;

    @Option(names = "--memory-budget", paramLabel = "MB", description = "--autotune: most MB that reads in flight"
        + " hold, 1 MB each (default 256)")
    Integer memoryBudgetMb;

    @Option(names = "--autotune-out", paramLabel = "FILE", defaultValue = "spdl4j-autotuned.properties",
        description = "--autotune: the config file to write when it settles (default ${DEFAULT-VALUE})")
    Path autotuneOut;

    @Option(names = "--device", paramLabel = "DEVICE", defaultValue = "cpu",
        description = "cpu (default): batches stay in host memory; auto: copy to the GPU if one is found, else into"
            + " host memory; host: copy into host memory; gpu: copy to the GPU or fail")
    DeviceOption device;

    private MaxFailures maxFailures;

    @Override
    public Integer call() throws Exception {
        if (epochs < 1 || sampleImages < 1 || intervalMs < 10) {
            throw new ParameterException(spec.commandLine(), "--epochs and --images must be >= 1 and --interval-ms >= 10");
        }
        if (maxBatches != null && maxBatches < 1) {
            throw new ParameterException(spec.commandLine(), "--max-batches must be >= 1, got " + maxBatches);
        }
        if (readTimeoutSeconds != null && (!(readTimeoutSeconds > 0) || readTimeoutSeconds > 86_400)) {
            throw new ParameterException(spec.commandLine(), "--read-timeout " + readTimeoutSeconds
                + ": give seconds, more than 0 and at most 86400");
        }
        if (taskTimeoutSeconds != null && (!(taskTimeoutSeconds > 0) || taskTimeoutSeconds > 86_400)) {
            throw new ParameterException(spec.commandLine(), "--task-timeout " + taskTimeoutSeconds
                + ": give seconds, more than 0 and at most 86400");
        }
        maxFailures = MaxFailures.parse(spec, maxFailuresText);
        if ((cpuBudget != null && (cpuBudget < 1 || cpuBudget > 4096))
            || (memoryBudgetMb != null && (memoryBudgetMb < 1 || memoryBudgetMb > 1 << 20))) {
            throw new ParameterException(spec.commandLine(), "--cpu-budget must be 1-4096 and --memory-budget 1-"
                + (1 << 20) + " (MB)");
        }
        if (autotune) {
            OutputPaths.checkFile(spec, "--autotune-out", autotuneOut);
        }
        PipelineSettings settings = pipelineArgs.resolve(spec, media);
        if (settings.augment() && media != MediaOption.image) {
            throw new ParameterException(spec.commandLine(), "--augment is the image training transform; --media "
                + media + " takes none");
        }
        RankInfo rank = DataArgs.rank(spec);
        long runSeed = seed != null ? seed : LoaderBuilder.DEFAULT_SEED;
        LoaderState resume = stateFile != null ? StateFile.read(spec, stateFile) : null;
        if (resume != null) {
            runSeed = checkedSeed(resume, "--state " + stateFile);
            rank = checkedRank(resume, rank);
        }
        if (resumeFrom != null) {
            if (resume != null) {
                throw new ParameterException(spec.commandLine(), "--state " + stateFile + " exists and --resume-from"
                    + " is given: resume from one (give --state a new file to save this rank's state in)");
            }
            resumeAll = new ArrayList<>();
            for (Path file : resumeFrom) {
                LoaderState saved = StateFile.read(spec, file);
                if (saved == null) {
                    throw new ParameterException(spec.commandLine(), "--resume-from " + file + ": no such file");
                }
                resumeAll.add(saved);
            }
            runSeed = checkedSeed(resumeAll.get(0), "--resume-from " + resumeFrom.get(0));
        }
        if (report != null) {
            reportDirectory();
        }
        if (keysFile != null) {
            OutputPaths.checkFile(spec, "--keys", keysFile);
        }
        if (stateFile != null) {
            OutputPaths.checkFile(spec, "--state", stateFile);
        }
        if (mix != null && data != null) {
            throw new ParameterException(spec.commandLine(), "--mix and --data: give one (--mix PATH=WEIGHT for each"
                + " part of a mixture)");
        }
        if (samplesPerEpoch != null && mix == null) {
            throw new ParameterException(spec.commandLine(), "--samples-per-epoch goes with --mix");
        }
        boolean s3 = S3Location.isS3(data);
        if (!s3 && (endpoint != null || region != null)) {
            throw new ParameterException(spec.commandLine(), (endpoint != null ? "--endpoint" : "--region")
                + " goes with s3:// data (--data s3://bucket/prefix/)");
        }
        try (S3ObjectStore store = s3 ? s3Store(settings) : null) { // closed after the loader
            DataArgs.RunData runData = s3 ? DataArgs.s3Data(spec, data, store, media)
                : mix != null ? DataArgs.mixData(spec, mix, samplesPerEpoch, media, classesFile)
                : DataArgs.runData(spec, data == null ? null : Path.of(data), media, sampleImages,
                    spec.commandLine().getErr());
            if (classesFile != null && mix == null) {
                runData = DataArgs.withClasses(spec, runData, classesFile);
            }
            if (interleave != null) {
                runData = DataArgs.interleaved(spec, runData, interleave);
            }
            if (resume != null && resume.epoch() >= epochs) {
                spec.commandLine().getOut().printf(Locale.ROOT, "spdl4j run: --state %s: the saved run has done all"
                    + " %d epoch(s); nothing left to load (delete the file to start afresh)%n", stateFile, epochs);
                spec.commandLine().getOut().flush();
                return 0;
            }
            try (Device target = device.open()) { // null for cpu: no device, no transfer stage
                return run(runData, settings, rank, runSeed, resume, target);
            }
        }
    }

    /** The S3 store of {@code --endpoint} and {@code --region}, room for every read in flight on its connections. */
    private S3ObjectStore s3Store(PipelineSettings settings) {
        S3ObjectStoreBuilder b = S3ObjectStore.builder()
            .maxConcurrency(Math.max(S3ObjectStore.DEFAULT_MAX_CONCURRENCY, settings.readConcurrency()));
        if (endpoint != null) {
            if (endpoint.getScheme() == null || endpoint.getHost() == null) {
                throw new ParameterException(spec.commandLine(), "--endpoint " + endpoint + ": give a URL,"
                    + " http://host:port");
            }
            b.endpoint(endpoint);
        }
        if (region != null) {
            b.region(region);
        }
        try {
            return b.build();
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--data " + data + ": " + e.getMessage());
        }
    }

    /** The saved seed, refusing a {@code --seed} that differs: a resumed run is the saved run. */
    private long checkedSeed(LoaderState resume, String from) {
        if (seed != null && seed != resume.seed()) {
            throw new ParameterException(spec.commandLine(), "--seed " + seed + ": " + from
                + " was saved by a run with seed " + resume.seed() + "; resume with that seed (or no --seed), or"
                + " delete the file to start afresh");
        }
        return resume.seed();
    }

    /** The saved rank, refusing RANK / WORLD_SIZE that name another. */
    private RankInfo checkedRank(LoaderState resume, RankInfo fromEnvironment) {
        RankInfo saved = new RankInfo(resume.rank(), resume.worldSize());
        if (System.getenv(RankInfo.RANK_ENV) != null && !saved.equals(fromEnvironment)) {
            throw new ParameterException(spec.commandLine(), "RANK=" + fromEnvironment.rank() + " WORLD_SIZE="
                + fromEnvironment.worldSize() + ": --state " + stateFile + " was saved by rank " + saved.rank()
                + " of " + saved.worldSize() + "; resume each rank from its own state file");
        }
        return saved;
    }

    private int run(DataArgs.RunData runData, PipelineSettings settings, RankInfo rank, long runSeed,
                    LoaderState resume, Device target) throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        RunHeader header = new RunHeader(runData, media, settings, rank, epochs, runSeed, !noShuffle);
        long perEpoch = runData.perEpoch(rank);
        long total = perEpoch < 0 ? 0
            : perEpoch * epochs - (resume == null ? 0 : StateFile.settled(resume, perEpoch, epochs));
        header.printSource(out);
        if (resume != null) {
            out.printf(Locale.ROOT, "spdl4j run: resuming from %s (epoch %d)%s%n", stateFile, resume.epoch(),
                perEpoch < 0 ? "" : ", " + total + " " + media.unit() + " left");
        }
        TaskTrace trace = report != null ? new TaskTrace(200_000) : null;
        RunMetrics metrics = new RunMetrics(media.unit(), media.rateUnit());
        // The first batch's whole wait and the run's own peak RSS from here: not the sample's generation, but FFmpeg
        // loading (the decoder's construction), the loader's pools and its threads starting.
        metrics.building();
        SlotDecoder decoder = new TracingSlotDecoder(media.decoder(settings.augment()), trace);
        LoaderBuilder<Batch> builder = Loader.builder().name("run").source(runData.source()).decoder(decoder)
            .epochs(epochs).seed(runSeed).shuffle(!noShuffle).rank(rank).resume(resume).epochAligned(epochAligned);
        if (resumeAll != null) {
            builder.resume(resumeAll); // every saved rank's state: this rank's share of what they left
        }
        settings.applyTo(builder);
        if (readTimeoutSeconds != null) {
            builder.readTimeout(java.time.Duration.ofNanos((long) (readTimeoutSeconds * 1e9)));
        }
        builder.decodeTimeout(java.time.Duration.ofNanos((long) ((taskTimeoutSeconds != null ? taskTimeoutSeconds
            : DEFAULT_TASK_TIMEOUT_SECONDS) * 1e9)));
        builder.failureBudget(maxFailures.budget());
        if (autotune) {
            TunerSettings tuning = TunerSettings.defaults();
            if (cpuBudget != null) {
                tuning = tuning.withCpuBudget(cpuBudget);
            }
            if (memoryBudgetMb != null) {
                tuning = tuning.withMemoryBudget((long) memoryBudgetMb << 20);
            }
            builder.autotune(tuning, new AutotuneListener(out, settings, autotuneOut));
        }
        if (target == null) {
            return consume(builder.build(), batch -> { }, header, metrics, trace, total, resume);
        }
        // K copies in flight, fewer than the host batches: decoding goes on while copies run.
        int copies = Math.max(1, Math.min(CudaConfiguration.IN_FLIGHT_DEFAULT, PipelineSettings.batchesInFlight() - 1));
        DeviceTransfer transfer;
        try {
            transfer = DeviceTransfer.to(target, copies);
        } catch (RuntimeException | Error e) {
            decoder.close(); // not yet the loader's
            throw e;
        }
        out.println("spdl4j run: device " + target.name() + (target.isGpu() ? "" : " (no GPU: host memory)") + ", "
            + copies + " copies in flight");
        Loader<DeviceBatch> loader = builder.batchMemory(target.hostAllocator()).transfer(transfer).build();
        return consume(loader, DeviceBatch::awaitReady, header, metrics, trace, total, resume);
    }

    /** Runs the loader to its end (or the run's) and prints what happened. */
    private <T> int consume(Loader<T> loader, Consumer<T> ready, RunHeader header, RunMetrics metrics,
                            TaskTrace trace, long total, LoaderState resume) throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        KeyLog keys;
        try {
            keys = keysFile != null ? KeyLog.open(keysFile) : null;
        } catch (RuntimeException | Error e) {
            loader.close();
            throw e;
        }
        // The run ends here however it ends: on a signal the hook waits for all of it, the loader closed last.
        SignalStop stop = SignalStop.install(() -> save(loader, keys), loader::close);
        try (stop; loader; keys) {
            PipelineStats stats = PipelineStats.of(loader.stats());
            StageHistogramLogWriter hlog = report != null ? StageHistogramLogWriter.open(stats, report.resolve("run.hlog"))
                : null;
            ProgressLine progress = noProgress ? null
                : new ProgressLine(err, System.console() != null, total, media.rateUnit());
            StatsSampler sampler = new StatsSampler(stats, intervalMs, progress, live);
            header.print(out);
            out.flush();
            metrics.start();
            stats.markStarted();
            sampler.start();
            RunLoop.End end;
            PipelineFailedException spent = null;
            try {
                end = RunLoop.drain(loader, ready, maxBatches != null ? maxBatches : Long.MAX_VALUE, keys, stop,
                    metrics);
            } catch (PipelineFailedException e) {
                if (!maxFailures.spentBy(e, loader.stats())) {
                    throw e;
                }
                end = RunLoop.End.FAILURE_BUDGET; // ends as a signal does: summary, keys and state, then status 1
                spent = e;
            } finally {
                sampler.close();
                if (hlog != null) {
                    hlog.close(); // also when the run failed: the log of what ran is kept, the file is closed
                }
                stop.save(); // keys flushed, state written: also when the run failed, what was delivered is kept
            }
            PipelineSnapshot last = stats.runSnapshot(); // shares over the whole run, not the last interval
            if (progress != null) {
                progress.finish(metrics.images(), metrics.imagesPerSecond(), live ? LiveBottleneck.describe(last) : null);
            }
            String summary = StatsTable.render(last) + "\n" + metrics.describe(loader.failures());
            out.println(summary);
            printEnd(out, end, keys, loader);
            if (report != null) {
                RunReport.write(report, reportHeader(header), stats, last, metrics.describe(loader.failures()), sampler,
                    trace);
                out.println("report: " + report.resolve("index.html"));
            }
            out.flush();
            if (spent != null) {
                throw new IllegalStateException(maxFailures.describe(spent, loader.stats()));
            }
            if (metrics.images() == 0 && end == RunLoop.End.DONE) { // the table above shows where it went
                long failed = loader.failures();
                if (failed == 0 && resume != null) {
                    out.println("spdl4j run: nothing left to load: --state " + stateFile + " settles every sample");
                    return 0;
                }
                throw new IllegalStateException(failed > 0
                    ? "no " + header.sampleWord() + " could be read or decoded (" + failed + " failed); first failure: "
                        + MaxFailures.message(loader.firstFailure())
                    : "no " + header.sampleWord() + " was delivered: this process's share of --data held none");
            }
        }
        return 0;
    }

    /** The report's title (what ran: the data, the media, the key settings) and its subtitle (the command line). */
    private RunReport.Header reportHeader(RunHeader header) {
        String what = mix != null ? "a mixture of " + String.join(", ", mix)
            : data == null ? "built-in sample of " + sampleImages + " images" : data.toString();
        PipelineSettings s = header.settings();
        String title = String.format(Locale.ROOT, "spdl4j run over %s: batch %d, decode %d threads%s", what,
            s.batchSize(), s.decodeConcurrency(), device == DeviceOption.cpu ? "" : ", device " + device);
        java.util.List<String> args = spec.commandLine().getParseResult().originalArgs(); // "run" and its options
        String command = "spdl4j " + String.join(" ", args.isEmpty() || !args.getFirst().equals("run")
            ? java.util.stream.Stream.concat(java.util.stream.Stream.of("run"), args.stream()).toList() : args);
        return new RunReport.Header(title, command + "  |  " + header.describe(), new StageUnits(media.unit()));
    }

    /** Flushes the keys and writes the state: the end of every run, however it ends. */
    private void save(Loader<?> loader, KeyLog keys) {
        if (keys != null) {
            keys.flush();
        }
        if (stateFile != null) {
            try {
                StateFile.write(stateFile, loader.state());
            } catch (IOException e) {
                throw new UncheckedIOException("--state " + stateFile + ": " + IoMessages.describe(e), e);
            }
        }
    }

    /** Says why the run ended when it ended early, and where the keys and the state went. */
    private void printEnd(PrintWriter out, RunLoop.End end, KeyLog keys, Loader<?> loader) {
        switch (end) {
            case MAX_BATCHES -> out.println("stopped: --max-batches " + maxBatches);
            case SIGNAL -> out.println("stopped: by a signal (SIGINT or SIGTERM)");
            case FAILURE_BUDGET -> out.println("stopped: --max-failures " + maxFailures.text() + " spent");
            case DONE -> { }
        }
        if (keys != null) {
            out.println("keys: " + keys.lines() + " line(s) in " + keys.file());
        }
        if (stateFile != null) {
            out.println("state: " + stateFile + " (" + loader.state().encode() + ")");
        }
    }


    /** Creates the {@code --report} folder before anything runs; a path that cannot be one is a bad argument. */
    private void reportDirectory() {
        if (Files.exists(report) && !Files.isDirectory(report)) {
            throw new ParameterException(spec.commandLine(), "--report " + report
                + ": not a directory (a file is in the way)");
        }
        try {
            Files.createDirectories(report);
        } catch (IOException e) {
            throw new ParameterException(spec.commandLine(), "--report " + report + ": " + IoMessages.describe(e));
        }
    }
}
