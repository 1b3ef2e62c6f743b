package io.freshet.cadence.sim;

/**
 * What one simulated fetch saw — all a policy may learn from. It is a reusable view, valid only
 * during the {@link SimPolicy#onFetch} call it is passed to.
 *
 * <p>In {@link ObserveMode#FEED} the fetch lists the latest {@code feedSize} items published at or
 * before {@link #now()}, with their times, signal types and event dates; items the list cannot hold
 * are lost. In {@link ObserveMode#PAGE} only {@link #changed()} is known.
 */
public final class FetchObservation {

  private final Trace trace;
  private final ObserveMode mode;
  private final int feedSize;

  int source;
  long now;
  long previous;
  boolean bootstrap;
  int newCount;
  int hi;

  FetchObservation(Trace trace, ObserveMode mode, int feedSize) {
    this.trace = trace;
    this.mode = mode;
    this.feedSize = feedSize;
  }

  /**
   * The observation of a fetch of {@code source} at {@code now} whose previous fetch was at {@code
   * previous} ({@code bootstrap}: none; everything published up to {@code now} is new).
   */
  public static FetchObservation of(
      Trace trace,
      ObserveMode mode,
      int feedSize,
      int source,
      long now,
      long previous,
      boolean bootstrap) {
    FetchObservation o = new FetchObservation(trace, mode, feedSize);
    o.source = source;
    o.now = now;
    o.previous = previous;
    o.bootstrap = bootstrap;
    o.hi = trace.firstAfter(source, now);
    o.newCount = bootstrap ? o.hi : o.hi - trace.firstAfter(source, previous);
    return o;
  }

  public int source() {
    return source;
  }

  /** When the fetch happened, epoch seconds. */
  public long now() {
    return now;
  }

  /** The previous fetch, epoch seconds; meaningless for the {@link #bootstrap()} fetch. */
  public long previous() {
    return previous;
  }

  /** The first fetch of the window: nothing was known before it. */
  public boolean bootstrap() {
    return bootstrap;
  }

  public ObserveMode mode() {
    return mode;
  }

  /** Whether the source changed since the previous fetch. */
  public boolean changed() {
    return newCount > 0;
  }

  /** Items published since the previous fetch that the fetch lists (feeds only). */
  public int visibleNew() {
    return mode == ObserveMode.FEED ? Math.min(newCount, feedSize) : 0;
  }

  /** Whether more items were published since the previous fetch than the feed lists. */
  public boolean overflowed() {
    return mode == ObserveMode.FEED && newCount > feedSize;
  }

  /** How many items the feed lists (feeds only): {@code listed(0)} is the oldest. */
  public int listedCount() {
    return mode == ObserveMode.FEED ? Math.min(hi, feedSize) : 0;
  }

  /** Publication time of the i-th listed item, oldest first (feeds only). */
  public long listedTime(int i) {
    return trace.times()[source][hi - listedCount() + i];
  }

  /** Signal type ordinal of the i-th listed item, or -1. */
  public int listedType(int i) {
    byte[][] types = trace.types();
    return types == null ? -1 : types[source][hi - listedCount() + i];
  }

  /** Event date of the i-th listed item, epoch seconds, or {@link Trace#NONE}. */
  public long listedEventAt(int i) {
    long[][] events = trace.eventAt();
    return events == null ? Trace.NONE : events[source][hi - listedCount() + i];
  }

  /** Index among the listed items of the oldest new one. */
  public int firstNewListed() {
    return listedCount() - visibleNew();
  }
}
