package org.spdl4j.examples.training;

/**
 * A linear softmax classifier trained by minibatch gradient descent, in plain Java: {@code p = softmax(W x + b)},
 * cross-entropy loss. Weights and gradients are preallocated for the largest batch; a step allocates nothing.
 *
 * <p>Not thread-safe: one training thread owns it.
 */
public final class SoftmaxRegression {
    private final int classes;
    private final int features;
    private final float learningRate;
    private final float[] weights;
    private final float[] bias;
    private final float[] gradWeights;
    private final float[] gradBias;
    private final float[] probabilities;

    /**
     * Creates a model with zero weights (uniform predictions, loss ln K).
     *
     * @param classes      K
     * @param features     D
     * @param learningRate gradient step size
     */
    public SoftmaxRegression(int classes, int features, float learningRate) {
        this.classes = classes;
        this.features = features;
        this.learningRate = learningRate;
        this.weights = new float[classes * features];
        this.bias = new float[classes];
        this.gradWeights = new float[classes * features];
        this.gradBias = new float[classes];
        this.probabilities = new float[classes];
    }

    /**
     * One gradient step on a minibatch.
     *
     * @param x       {@code n x D} features, row after row
     * @param labels  {@code n} labels in {@code [0, K)}
     * @param n       rows
     * @param correct receives, at index 0, how many rows the model classified right before the step
     * @return the minibatch's mean cross-entropy before the step
     */
    public double step(float[] x, int[] labels, int n, int[] correct) {
        java.util.Arrays.fill(gradWeights, 0f);
        java.util.Arrays.fill(gradBias, 0f);
        double loss = 0;
        int right = 0;
        for (int i = 0; i < n; i++) {
            int best = forward(x, i);
            right += best == labels[i] ? 1 : 0;
            loss -= Math.log(Math.max(probabilities[labels[i]], 1e-12f));
            for (int k = 0; k < classes; k++) {
                float g = probabilities[k] - (k == labels[i] ? 1f : 0f); // d loss / d logit
                gradBias[k] += g;
                for (int j = 0; j < features; j++) {
                    gradWeights[k * features + j] += g * x[i * features + j];
                }
            }
        }
        float scale = learningRate / n;
        for (int k = 0; k < classes; k++) {
            bias[k] -= scale * gradBias[k];
            for (int j = 0; j < features; j++) {
                weights[k * features + j] -= scale * gradWeights[k * features + j];
            }
        }
        correct[0] = right;
        return loss / n;
    }

    /**
     * Classifies row {@code i}.
     *
     * @param x {@code n x D} features
     * @param i the row
     * @return the most probable class
     */
    public int predict(float[] x, int i) {
        return forward(x, i);
    }

    /** Fills {@link #probabilities} for row {@code i}; returns the arg-max. */
    private int forward(float[] x, int i) {
        float max = Float.NEGATIVE_INFINITY;
        for (int k = 0; k < classes; k++) {
            float z = bias[k];
            for (int j = 0; j < features; j++) {
                z += weights[k * features + j] * x[i * features + j];
            }
            probabilities[k] = z;
            max = Math.max(max, z);
        }
        float sum = 0f;
        int best = 0;
        for (int k = 0; k < classes; k++) {
            probabilities[k] = (float) Math.exp(probabilities[k] - max); // shifted: no overflow
            sum += probabilities[k];
            best = probabilities[k] > probabilities[best] ? k : best;
        }
        for (int k = 0; k < classes; k++) {
            probabilities[k] /= sum;
        }
        return best;
    }
}
