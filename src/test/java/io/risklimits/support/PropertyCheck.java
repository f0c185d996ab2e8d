package io.risklimits.support;

import java.util.HexFormat;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import java.util.random.RandomGenerator;

/**
 * Runs a property over random samples: the property must hold for every one of a number of tries drawn
 * from a generator ({@link Gen}). Each run draws from a new random seed, so that runs together cover more
 * than one would; a failure names the seed, the try and the sample, and running the test again with that
 * seed ({@value #SEED_PROPERTY}) draws the same samples in the same order.
 */
public final class PropertyCheck {

    /** The system property that fixes the seed, to replay a failure. */
    public static final String SEED_PROPERTY = "risk.test.seed";

    private PropertyCheck() {}

    /** Checks the property on tries samples of the generator, from a new seed or the one {@value #SEED_PROPERTY} gives. */
    public static <T> void forAll(int tries, Gen<T> samples, Consumer<? super T> property) {
        Long fixed = Long.getLong(SEED_PROPERTY);
        forAll(fixed != null ? fixed : new SplittableRandom().nextLong(), tries, samples, property);
    }

    /** Checks the property on tries samples of the generator, drawn from this seed. */
    public static <T> void forAll(long seed, int tries, Gen<T> samples, Consumer<? super T> property) {
        RandomGenerator random = new SplittableRandom(seed);
        for (int attempt = 1; attempt <= tries; attempt++) {
            T sample = samples.next(random);
            try {
                property.accept(sample);
            } catch (AssertionError | RuntimeException failure) {
                throw new AssertionError(
                        "property failed on try " + attempt + " of " + tries + " (seed " + seed + ", replay with -D"
                                + SEED_PROPERTY + "=" + seed + ") for the sample " + describe(sample),
                        failure);
            }
        }
    }

    private static String describe(Object sample) {
        String text = sample instanceof byte[] bytes ? HexFormat.of().formatHex(bytes) : String.valueOf(sample);
        return text.length() > 2000 ? text.substring(0, 2000) + "... (" + text.length() + " characters)" : text;
    }
}
