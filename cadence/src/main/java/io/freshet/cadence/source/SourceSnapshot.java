package io.freshet.cadence.source;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * What the scheduler knows about one source when it computes cadence: the row's own columns and its
 * denormalised {@code SourceStats}. Computing cadence reads nothing else.
 *
 * <p>Every nullable component means "unknown"; each mode documents the fallback it takes.
 *
 * @param lastFetchAt {@code cursor_json.last_fetch_at}: the last {@code ok}/{@code partial}/{@code
 *     not_modified} fetch, or null if never fetched
 * @param category the source's category, or null (modes fall back to their configured category)
 * @param tier the tenant's tier, or null for no tier minimum
 * @param retryAfter the last {@code Retry-After} as an instant, or null
 * @param consecutiveMisses consecutive failed fetches
 * @param consecutiveEmpty consecutive fetches that brought no new item
 * @param windowFetches fetches in the stats window (cold start is judged on it)
 * @param avgSignalYield new items per fetch over the window, or null
 * @param dominantSignalType the most frequent signal type over the window, or null
 * @param typeCounts items per signal type over the window (never null, may be empty)
 * @param medianDaysToEvent median days from fetch to the items' event dates, or null (no dates)
 * @param publishIntervalAvg mean gap between the last 10 items' publication times, or null
 * @param changeRatePerHour estimated changes per hour (see {@code ChangeRateEstimator}), or null
 * @param recentPublishedAt publication times of the most recent items, any order (never null)
 * @param rateShape how the change rate varies around {@code changeRatePerHour} over time (rhythm,
 *     bursts), or null for a steady rate
 */
public record SourceSnapshot(
    Instant lastFetchAt,
    Category category,
    Tier tier,
    Instant retryAfter,
    int consecutiveMisses,
    int consecutiveEmpty,
    int windowFetches,
    Double avgSignalYield,
    SignalType dominantSignalType,
    Map<SignalType, Integer> typeCounts,
    Double medianDaysToEvent,
    Duration publishIntervalAvg,
    Double changeRatePerHour,
    List<Instant> recentPublishedAt,
    RateShape rateShape) {

  public SourceSnapshot {
    if (consecutiveMisses < 0 || consecutiveEmpty < 0 || windowFetches < 0) {
      throw new IllegalArgumentException("counters must not be negative");
    }
    typeCounts = typeCounts == null ? Map.of() : Map.copyOf(typeCounts);
    recentPublishedAt = recentPublishedAt == null ? List.of() : List.copyOf(recentPublishedAt);
  }

  /** A source nobody has fetched yet and nothing is known about. */
  public static SourceSnapshot fresh() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder starting from this snapshot's values. */
  public Builder toBuilder() {
    return new Builder()
        .lastFetchAt(lastFetchAt)
        .category(category)
        .tier(tier)
        .retryAfter(retryAfter)
        .consecutiveMisses(consecutiveMisses)
        .consecutiveEmpty(consecutiveEmpty)
        .windowFetches(windowFetches)
        .avgSignalYield(avgSignalYield)
        .dominantSignalType(dominantSignalType)
        .typeCounts(typeCounts)
        .medianDaysToEvent(medianDaysToEvent)
        .publishIntervalAvg(publishIntervalAvg)
        .changeRatePerHour(changeRatePerHour)
        .recentPublishedAt(recentPublishedAt)
        .rateShape(rateShape);
  }

  /**
   * The row after the scheduler applied {@code outcome}: success and 304 set {@code last_fetch_at}
   * and reset misses; a failure keeps {@code last_fetch_at} (ADR 0006
   * (docs/adr/0006-per-source-cadence-and-the-due-rule.md)) and adds a miss. Stats fields are kept:
   * they arrive separately on {@code freshet.source.stats.v1}.
   */
  public SourceSnapshot after(Outcome outcome) {
    return switch (outcome) {
      case Outcome.Success s ->
          toBuilder().lastFetchAt(s.at()).consecutiveMisses(0).retryAfter(null).build();
      case Outcome.NotModified n ->
          toBuilder().lastFetchAt(n.at()).consecutiveMisses(0).retryAfter(null).build();
      case Outcome.Failure f ->
          toBuilder().consecutiveMisses(consecutiveMisses + 1).retryAfter(f.retryAfter()).build();
    };
  }

  /** Mutable builder; every field defaults to "unknown". */
  public static final class Builder {
    private Instant lastFetchAt;
    private Category category;
    private Tier tier;
    private Instant retryAfter;
    private int consecutiveMisses;
    private int consecutiveEmpty;
    private int windowFetches;
    private Double avgSignalYield;
    private SignalType dominantSignalType;
    private Map<SignalType, Integer> typeCounts = Map.of();
    private Double medianDaysToEvent;
    private Duration publishIntervalAvg;
    private Double changeRatePerHour;
    private List<Instant> recentPublishedAt = List.of();
    private RateShape rateShape;

    private Builder() {}

    public Builder lastFetchAt(Instant v) {
      lastFetchAt = v;
      return this;
    }

    public Builder category(Category v) {
      category = v;
      return this;
    }

    public Builder tier(Tier v) {
      tier = v;
      return this;
    }

    public Builder retryAfter(Instant v) {
      retryAfter = v;
      return this;
    }

    public Builder consecutiveMisses(int v) {
      consecutiveMisses = v;
      return this;
    }

    public Builder consecutiveEmpty(int v) {
      consecutiveEmpty = v;
      return this;
    }

    public Builder windowFetches(int v) {
      windowFetches = v;
      return this;
    }

    public Builder avgSignalYield(Double v) {
      avgSignalYield = v;
      return this;
    }

    public Builder dominantSignalType(SignalType v) {
      dominantSignalType = v;
      return this;
    }

    public Builder typeCounts(Map<SignalType, Integer> v) {
      typeCounts = v;
      return this;
    }

    public Builder medianDaysToEvent(Double v) {
      medianDaysToEvent = v;
      return this;
    }

    public Builder publishIntervalAvg(Duration v) {
      publishIntervalAvg = v;
      return this;
    }

    public Builder changeRatePerHour(Double v) {
      changeRatePerHour = v;
      return this;
    }

    public Builder recentPublishedAt(List<Instant> v) {
      recentPublishedAt = v;
      return this;
    }

    public Builder rateShape(RateShape v) {
      rateShape = v;
      return this;
    }

    public SourceSnapshot build() {
      return new SourceSnapshot(
          lastFetchAt,
          category,
          tier,
          retryAfter,
          consecutiveMisses,
          consecutiveEmpty,
          windowFetches,
          avgSignalYield,
          dominantSignalType,
          typeCounts,
          medianDaysToEvent,
          publishIntervalAvg,
          changeRatePerHour,
          recentPublishedAt,
          rateShape);
    }
  }
}
