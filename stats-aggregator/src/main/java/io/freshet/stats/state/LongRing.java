package io.freshet.stats.state;

import java.util.Arrays;

/**
 * A bounded set of longs in insertion order: adding beyond capacity evicts the oldest. Primitive
 * and linear-scan on purpose: a few hundred entries per source are read, searched and written back
 * on every fetch, and boxing them in a {@code LinkedHashSet} costs more than the scan and the
 * shift.
 */
final class LongRing {

  /** Oldest first, {@code [0, size)}. */
  private long[] values;

  private int size;

  LongRing(int initialCapacity) {
    this.values = new long[Math.max(4, initialCapacity)];
  }

  int size() {
    return size;
  }

  boolean contains(long v) {
    for (int i = 0; i < size; i++) {
      if (values[i] == v) {
        return true;
      }
    }
    return false;
  }

  /** Adds {@code v} unless present; keeps at most {@code capacity}, evicting the oldest. */
  boolean add(long v, int capacity) {
    if (contains(v)) {
      return false;
    }
    if (size >= capacity) {
      int drop = size - capacity + 1;
      System.arraycopy(values, drop, values, 0, size - drop);
      size -= drop;
    }
    if (size == values.length) {
      values = Arrays.copyOf(values, Math.max(4, Math.min(capacity, values.length * 2)));
    }
    values[size++] = v;
    return true;
  }

  /** The values, oldest first. */
  long[] toArray() {
    return Arrays.copyOf(values, size);
  }

  /** A ring holding {@code oldestFirst}. */
  static LongRing of(long[] oldestFirst) {
    LongRing r = new LongRing(oldestFirst.length);
    System.arraycopy(oldestFirst, 0, r.values, 0, oldestFirst.length);
    r.size = oldestFirst.length;
    return r;
  }
}
