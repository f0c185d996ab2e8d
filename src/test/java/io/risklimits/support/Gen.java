package io.risklimits.support;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.random.RandomGenerator;

/**
 * A generator of random values for a property test ({@link PropertyCheck}): a function of the random
 * source, composed with {@link #map}, {@link #flatMap} and {@link #filter}, or by calling other
 * generators' {@link #next} in a lambda. The numeric generators return their range's edges (the bounds,
 * the values next to them, zero) about one draw in eight, where off-by-one defects live.
 */
@FunctionalInterface
public interface Gen<T> {

    /** How often a numeric generator draws one of its range's edges instead of a uniform value. */
    int EDGE_ONE_IN = 8;

    /** How many draws {@link #filter} makes before it gives up on a predicate that rejects too much. */
    int FILTER_DRAWS = 10_000;

    T next(RandomGenerator random);

    default <U> Gen<U> map(Function<? super T, ? extends U> mapper) {
        return random -> mapper.apply(next(random));
    }

    default <U> Gen<U> flatMap(Function<? super T, ? extends Gen<? extends U>> mapper) {
        return random -> mapper.apply(next(random)).next(random);
    }

    /** Only the values the predicate accepts; fails the test if it rejects {@link #FILTER_DRAWS} draws in a row. */
    default Gen<T> filter(Predicate<? super T> accepted) {
        return random -> {
            for (int draw = 0; draw < FILTER_DRAWS; draw++) {
                T value = next(random);
                if (accepted.test(value)) {
                    return value;
                }
            }
            throw new IllegalStateException("the filter rejected " + FILTER_DRAWS + " draws in a row");
        };
    }

    /** Lists of this generator's values, of a size between the bounds (inclusive). */
    default Gen<List<T>> list(int minSize, int maxSize) {
        Gen<Integer> sizes = ints(minSize, maxSize);
        return random -> {
            int size = sizes.next(random);
            List<T> values = new ArrayList<>(size);
            for (int i = 0; i < size; i++) {
                values.add(next(random));
            }
            return values;
        };
    }

    /** This generator's values, or null with the given probability (0 to 1). */
    default Gen<T> orNull(double probability) {
        return random -> random.nextDouble() < probability ? null : next(random);
    }

    static <T> Gen<T> just(T value) {
        return random -> value;
    }

    /** One of the values, each as likely. */
    @SafeVarargs
    static <T> Gen<T> of(T... values) {
        return of(List.of(values));
    }

    /** One of the values, each as likely. */
    static <T> Gen<T> of(List<? extends T> values) {
        List<? extends T> choices = List.copyOf(values);
        return random -> choices.get(random.nextInt(choices.size()));
    }

    /** A value of one of the generators, each generator as likely. */
    @SafeVarargs
    static <T> Gen<T> oneOf(Gen<? extends T>... generators) {
        List<Gen<? extends T>> choices = List.of(generators);
        return random -> choices.get(random.nextInt(choices.size())).next(random);
    }

    /** A long between the bounds (inclusive), its edges about one draw in {@link #EDGE_ONE_IN}. */
    static Gen<Long> longs(long min, long max) {
        if (min > max) {
            throw new IllegalArgumentException(min + " > " + max);
        }
        List<Long> edges = edges(min, max);
        return random -> {
            if (random.nextInt(EDGE_ONE_IN) == 0) {
                return edges.get(random.nextInt(edges.size()));
            }
            // nextLong(origin, bound) takes any origin < bound, a range wider than Long.MAX_VALUE too
            if (max < Long.MAX_VALUE) {
                return random.nextLong(min, max + 1);
            }
            return min > Long.MIN_VALUE ? random.nextLong(min - 1, max) + 1 : random.nextLong();
        };
    }

    /** Any long, its edges (the extremes, zero and its neighbours) about one draw in {@link #EDGE_ONE_IN}. */
    static Gen<Long> longs() {
        return longs(Long.MIN_VALUE, Long.MAX_VALUE);
    }

    /**
     * A long between the bounds (inclusive, min at least 0), each count of decimal digits about as likely, so
     * that 7 is drawn about as often as 7,000,000 (amounts, rates); its edges about one draw in {@link
     * #EDGE_ONE_IN}.
     */
    static Gen<Long> magnitudes(long min, long max) {
        if (min < 0 || min > max) {
            throw new IllegalArgumentException(min + " .. " + max);
        }
        int fewest = Long.toString(min).length();
        int most = Long.toString(max).length();
        List<Gen<Long>> byDigits = new ArrayList<>();
        for (int digits = fewest; digits <= most; digits++) {
            long lowest = digits == 1 ? 0 : pow10(digits - 1);
            long highest = digits == 19 ? Long.MAX_VALUE : pow10(digits) - 1;
            byDigits.add(longs(Math.max(min, lowest), Math.min(max, highest)));
        }
        Gen<Long> edges = of(edges(min, max));
        Gen<Long> values = of(byDigits).flatMap(digits -> digits);
        return random -> random.nextInt(EDGE_ONE_IN) == 0 ? edges.next(random) : values.next(random);
    }

    /** An int between the bounds (inclusive), its edges about one draw in {@link #EDGE_ONE_IN}. */
    static Gen<Integer> ints(int min, int max) {
        return longs(min, max).map(Long::intValue);
    }

    /** A string of characters drawn from the alphabet, of a length between the bounds (inclusive). */
    static Gen<String> strings(String alphabet, int minLength, int maxLength) {
        return strings(chars(alphabet), minLength, maxLength);
    }

    /** A string of the generator's characters, of a length between the bounds (inclusive). */
    static Gen<String> strings(Gen<Character> chars, int minLength, int maxLength) {
        return chars.list(minLength, maxLength).map(list -> {
            StringBuilder text = new StringBuilder(list.size());
            list.forEach(text::append);
            return text.toString();
        });
    }

    /** One of the alphabet's characters, each as likely. */
    static Gen<Character> chars(String alphabet) {
        return random -> alphabet.charAt(random.nextInt(alphabet.length()));
    }

    /** A char between the bounds (inclusive), its edges about one draw in {@link #EDGE_ONE_IN}. */
    static Gen<Character> chars(char min, char max) {
        return longs(min, max).map(code -> (char) code.longValue());
    }

    /** Any UTF-16 code unit, lone surrogates and control characters included. */
    static Gen<Character> anyChar() {
        return chars(Character.MIN_VALUE, Character.MAX_VALUE);
    }

    /** Bytes of any value, of a length between the bounds (inclusive). */
    static Gen<byte[]> bytes(int minLength, int maxLength) {
        Gen<Integer> lengths = ints(minLength, maxLength);
        return random -> {
            byte[] bytes = new byte[lengths.next(random)];
            random.nextBytes(bytes);
            return bytes;
        };
    }

    private static long pow10(int exponent) {
        long power = 1;
        for (int i = 0; i < exponent; i++) {
            power *= 10;
        }
        return power;
    }

    private static List<Long> edges(long min, long max) {
        List<Long> edges = new ArrayList<>();
        for (long candidate : new long[] {min, max, 0, 1, -1}) {
            if (candidate >= min && candidate <= max && !edges.contains(candidate)) {
                edges.add(candidate);
            }
        }
        if (min < max && !edges.contains(min + 1)) {
            edges.add(min + 1);
        }
        if (min < max && !edges.contains(max - 1)) {
            edges.add(max - 1);
        }
        return List.copyOf(edges);
    }
}
