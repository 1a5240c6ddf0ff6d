package org.spdl4j.loader.internal;

import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import org.spdl4j.offheap.batch.Batch;
import org.spdl4j.offheap.batch.BatchTransfer;

/**
 * The transfer stage (asynchronous, {@link BatchTransfer#maxInFlight()} in flight): hands a record's host batch to
 * the transfer, which closes it once copied, and delivers the record with what the transfer made of it.
 *
 * <p><b>Failure:</b> a transfer that fails fails the whole batch (counted on this stage); the record's labels are
 * freed, and its samples are not settled, so a resumed run loads them again. <b>Allocation:</b> the transfer's own
 * and one completion stage per batch.
 */
final class TransferStage implements Function<BatchRecord, CompletionStage<BatchRecord>> {
    private final BatchTransfer<?> transfer;

    TransferStage(BatchTransfer<?> transfer) {
        this.transfer = transfer;
    }

    @Override
    public CompletionStage<BatchRecord> apply(BatchRecord record) {
        Batch host = record.host;
        record.transferred(null); // the transfer owns the host batch from here on, on every path
        CompletionStage<? extends AutoCloseable> copied;
        try {
            copied = transfer.transfer(host);
        } catch (RuntimeException e) {
            record.close(); // its labels; the host batch is the transfer's to close
            throw failed(record, e);
        } catch (Error e) {
            record.close();
            throw e;
        }
        return copied.handle((result, error) -> {
            if (error != null) {
                record.close();
                throw failed(record, error instanceof CompletionException c && c.getCause() != null
                    ? c.getCause() : error);
            }
            record.transferred(result);
            return record;
        });
    }

    /** The failure, naming the batch (its size and first key: a closed record still names itself). */
    private static CompletionException failed(BatchRecord record, Throwable cause) {
        return new CompletionException("transfer of the " + record + " failed; its samples are not settled (a "
            + "resumed run loads them again): " + cause, cause);
    }
}
