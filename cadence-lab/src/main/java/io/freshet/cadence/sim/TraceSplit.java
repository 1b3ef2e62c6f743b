package io.freshet.cadence.sim;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Views of a trace for honest measurement: a deterministic half of its sources (tune on one half,
 * report on the other), and change times put back on a poll grid.
 */
public final class TraceSplit {

  /** Which half of the sources. */
  public enum Half {
    /** The half a policy's parameters may be chosen on. */
    TUNING,
    /** The half that is only reported on. */
    HELD_OUT
  }

  private TraceSplit() {}

  /**
   * The half a source id falls in: the lowest bit of the first byte of the SHA-256 of its UTF-8
   * bytes (0 = tuning). Depends on the id only, so the split is the same in every run and on every
   * machine, and a source never moves between halves when others are added.
   */
  public static Half halfOf(String id) {
    try {
      byte[] h = MessageDigest.getInstance("SHA-256").digest(id.getBytes(StandardCharsets.UTF_8));
      return (h[0] & 1) == 0 ? Half.TUNING : Half.HELD_OUT;
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is always available", e);
    }
  }

  /** The sources of {@code trace} in {@code half}, in their original order. */
  public static Trace half(Trace trace, Half half) {
    List<String> ids = new ArrayList<>();
    List<long[]> times = new ArrayList<>();
    List<byte[]> types = new ArrayList<>();
    List<long[]> events = new ArrayList<>();
    for (int s = 0; s < trace.sources(); s++) {
      if (halfOf(trace.ids().get(s)) != half) {
        continue;
      }
      ids.add(trace.ids().get(s));
      times.add(trace.times()[s]);
      if (trace.types() != null) {
        types.add(trace.types()[s]);
      }
      if (trace.eventAt() != null) {
        events.add(trace.eventAt()[s]);
      }
    }
    return new Trace(
        ids,
        times.toArray(long[][]::new),
        trace.types() == null ? null : types.toArray(byte[][]::new),
        trace.eventAt() == null ? null : events.toArray(long[][]::new));
  }

  /**
   * Every change time moved up to the next multiple of {@code gridSeconds} since the epoch (a time
   * already on the grid stays): what a poller with that period reports as "first seen", instead of
   * a time spread over the poll interval. Order within a source is kept (the move is monotone).
   */
  public static Trace onGrid(Trace trace, long gridSeconds) {
    if (gridSeconds <= 0) {
      throw new IllegalArgumentException("the grid must be positive");
    }
    long[][] moved = new long[trace.sources()][];
    for (int s = 0; s < moved.length; s++) {
      long[] t = Arrays.copyOf(trace.times()[s], trace.times()[s].length);
      for (int i = 0; i < t.length; i++) {
        t[i] = Math.ceilDiv(t[i], gridSeconds) * gridSeconds;
      }
      moved[s] = t;
    }
    return new Trace(trace.ids(), moved, trace.types(), trace.eventAt());
  }
}
