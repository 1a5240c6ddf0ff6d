package org.spdl4j.examples.clicklog;

/**
 * The training step: logistic regression on a column batch, the "wide" part of a wide-and-deep recommender, trained
 * with Adagrad as wide models of click logs are. Each sparse field has an embedding table one weight wide (indexed by
 * the hash stage's bucket), each dense feature a weight, plus a bias. A step computes every row's click probability
 * and log loss with the weights as they were, sums the batch's gradient per weight (a sparse field's only over the
 * buckets its rows touched), and moves each weight by {@code rate * g / sqrt(G)}, where {@code G} sums the weight's
 * squared gradients so far: a bucket seen in every batch (a device) settles quickly, one seen rarely (an item) still
 * learns from each sighting.
 *
 * <p><b>Threading:</b> one training thread. <b>Allocation:</b> the tables and per-batch scratch at construction;
 * none per step.
 */
final class WideModel {
    private static final float EPSILON = 1e-6f;
    private static final int DENSE = ClickRowDescriptor.DENSE_COUNT;
    private static final int BIAS = DENSE; // the bias sits after the dense weights in their arrays

    private final float rate;
    private final float[] probability;
    private final float[] dense = new float[DENSE + 1];
    private final float[] denseSquares = new float[DENSE + 1];
    private final float[] denseGradient = new float[DENSE + 1];
    private final float[][] embeddings = new float[FeatureStages.SPARSE_FIELDS][];
    private final float[][] embeddingSquares = new float[FeatureStages.SPARSE_FIELDS][];
    private final float[][] embeddingGradient = new float[FeatureStages.SPARSE_FIELDS][];
    private final int[][] touched = new int[FeatureStages.SPARSE_FIELDS][]; // buckets with a gradient this step
    private final int[] touchedCount = new int[FeatureStages.SPARSE_FIELDS];
    private final int[][] touchedInStep = new int[FeatureStages.SPARSE_FIELDS][]; // per bucket: the last step that did
    private int steps;

    /**
     * Creates a model with every weight 0 (a click probability of one half).
     *
     * @param batchSize rows per batch, at most
     * @param rate      Adagrad's learning rate
     */
    WideModel(int batchSize, float rate) {
        this.rate = rate;
        this.probability = new float[batchSize];
        for (int f = 0; f < FeatureStages.SPARSE_FIELDS; f++) {
            int buckets = FeatureStages.buckets(f);
            embeddings[f] = new float[buckets];
            embeddingSquares[f] = new float[buckets];
            embeddingGradient[f] = new float[buckets];
            touched[f] = new int[Math.min(batchSize, buckets)];
            touchedInStep[f] = new int[buckets];
        }
    }

    /**
     * Takes one step on a batch.
     *
     * @param b the batch
     * @return the batch's mean log loss before the step
     */
    double step(ColumnBatch b) {
        int n = b.size();
        int step = ++steps;
        double loss = 0;
        for (int j = 0; j < n; j++) {
            float z = dense[BIAS];
            for (int f = 0; f < FeatureStages.SPARSE_FIELDS; f++) {
                z += embeddings[f][b.sparse(f, j)];
            }
            for (int i = 0; i < DENSE; i++) {
                z += dense[i] * b.dense(i, j);
            }
            loss += softplus(b.label(j) > 0.5f ? -z : z); // -log(p) for a click, -log(1 - p) otherwise
            probability[j] = (float) (1.0 / (1.0 + Math.exp(-z)));
        }
        for (int j = 0; j < n; j++) {
            float g = probability[j] - b.label(j); // d loss / d z
            denseGradient[BIAS] += g;
            for (int i = 0; i < DENSE; i++) {
                denseGradient[i] += g * b.dense(i, j);
            }
            for (int f = 0; f < FeatureStages.SPARSE_FIELDS; f++) {
                int bucket = b.sparse(f, j);
                if (touchedInStep[f][bucket] != step) {
                    touchedInStep[f][bucket] = step;
                    touched[f][touchedCount[f]++] = bucket;
                }
                embeddingGradient[f][bucket] += g;
            }
        }
        for (int i = 0; i <= DENSE; i++) {
            dense[i] -= adagrad(denseGradient[i], denseSquares, i);
            denseGradient[i] = 0f;
        }
        for (int f = 0; f < FeatureStages.SPARSE_FIELDS; f++) {
            float[] gradient = embeddingGradient[f];
            for (int t = 0; t < touchedCount[f]; t++) {
                int bucket = touched[f][t];
                embeddings[f][bucket] -= adagrad(gradient[bucket], embeddingSquares[f], bucket);
                gradient[bucket] = 0f;
            }
            touchedCount[f] = 0;
        }
        return loss / n;
    }

    private float adagrad(float g, float[] squares, int at) {
        float sum = squares[at] + g * g;
        squares[at] = sum;
        return rate * g / ((float) Math.sqrt(sum) + EPSILON);
    }

    private static double softplus(double x) {
        return Math.max(x, 0) + Math.log1p(Math.exp(-Math.abs(x)));
    }
}
