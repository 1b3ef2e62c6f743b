package io.freshet.cadence.estimate;

import java.util.Arrays;

/**
 * What kind of source this is, learned from its own fetches: several change models kept side by
 * side, each weighted by how well it predicted the source's own observations (Bayesian model
 * averaging with forgetting), starting from — and, with little evidence, staying near — the
 * population's weights ({@link Population}).
 *
 * <ul>
 *   <li>{@link Kind#POISSON}: the source's mean rate (its posterior mean), constant;
 *   <li>{@link Kind#HAZARD}: that mean times the population's age hazard (bursts right after a
 *       change, quiet spells after long silence — what the population's sources of that rate do);
 *   <li>{@link Kind#RHYTHM}: the mean times the source's hour-of-week rhythm (its {@link
 *       HourOfWeekProfile} shrunk toward the population's) — a source that publishes on working
 *       days, or every morning;
 *   <li>{@link Kind#BURSTY}: the hazard model plus a self-exciting part of the source's own (a
 *       Hawkes process with an exponential kernel, {@link Excitation}): every change seen adds
 *       {@link #ALPHA} expected further changes spread over the next {@link #TAU_HOURS} hours — a
 *       changelog that publishes ten items at once;
 *   <li>{@link Kind#DEAD}: one change in {@value #DEAD_YEARS} years.
 * </ul>
 *
 * The caller gives each model's expected count Λ over a fetch interval (it owns the rate
 * estimates); a fetch that saw {@code n} changes scores every model by the Poisson log-likelihood
 * {@code n ln Λ − Λ} (a page, which only tells changed / not changed, by ln(1 − e^{−Λ}) or −Λ).
 * Scores fade with a time constant (the rate evidence's memory), so a source that changes kind
 * moves to its new kind. The weights are the population's weights times e^{score}, normalised;
 * {@link #rate} is the mixture's expected rate now, which the budget allocation spends by.
 *
 * <p>Not thread-safe; one per source. {@link #snapshot()} / {@link #restore} persist it exactly
 * (versioned).
 */
public final class KindMixture {

  /** The change models. */
  public enum Kind {
    POISSON,
    HAZARD,
    RHYTHM,
    BURSTY,
    DEAD
  }

  /** Kinds, in {@link Kind#ordinal()} order. */
  public static final int KINDS = Kind.values().length;

  /** Time constant of a burst's excitation, hours. */
  public static final double TAU_HOURS = 1.0;

  /** Expected further changes caused by one change under {@link Kind#BURSTY} (branching ratio). */
  public static final double ALPHA = 0.5;

  /** A dead source's mean time between changes, years. */
  public static final double DEAD_YEARS = 10;

  /** A dead source's rate, changes per hour. */
  public static final double DEAD_RATE = 1.0 / (DEAD_YEARS * 8766);

  /** Largest gap between two models' log scores kept (a weight of e^-30 is zero in practice). */
  private static final double MAX_LOG_GAP = 30;

  private final double memoryHours;
  private final double[] score = new double[KINDS];
  private long scoredAt = Long.MIN_VALUE;
  private final Excitation excitation = new Excitation();

  /**
   * @param memoryHours time constant with which old scores fade
   */
  public KindMixture(double memoryHours) {
    if (!(memoryHours > 0)) {
      throw new IllegalArgumentException("memory must be positive");
    }
    this.memoryHours = memoryHours;
  }

  /** The source's own self-excitation (the {@link Kind#BURSTY} part). */
  public Excitation excitation() {
    return excitation;
  }

  /**
   * A fetch at {@code now} saw {@code count} new items (feeds).
   *
   * @param expected each model's expected count over the interval since the previous fetch
   */
  public void observeCount(long now, double[] expected, int count) {
    fade(now);
    for (int k = 0; k < KINDS; k++) {
      score[k] += count * Math.log(Math.max(expected[k], 1e-300)) - expected[k];
    }
    bound();
  }

  /** A fetch at {@code now} saw whether the source changed (pages). */
  public void observeChange(long now, double[] expected, boolean changed) {
    fade(now);
    for (int k = 0; k < KINDS; k++) {
      score[k] += changed ? Math.log(Math.max(-Math.expm1(-expected[k]), 1e-300)) : -expected[k];
    }
    bound();
  }

  private void fade(long now) {
    if (scoredAt != Long.MIN_VALUE && now > scoredAt) {
      double keep = Math.exp(-(now - scoredAt) / 3600.0 / memoryHours);
      for (int k = 0; k < KINDS; k++) {
        score[k] *= keep;
      }
    }
    scoredAt = Math.max(scoredAt, now);
  }

  private void bound() {
    double max = Arrays.stream(score).max().orElse(0);
    for (int k = 0; k < KINDS; k++) {
      score[k] = Math.max(score[k] - max, -MAX_LOG_GAP);
    }
  }

  /** The posterior weights under the population's {@code prior} weights, into {@code out}. */
  public double[] weights(double[] prior, double[] out) {
    double sum = 0;
    for (int k = 0; k < KINDS; k++) {
      out[k] = prior[k] * Math.exp(score[k]);
      sum += out[k];
    }
    for (int k = 0; k < KINDS; k++) {
      out[k] = sum > 0 ? out[k] / sum : prior[k];
    }
    return out;
  }

  /** The mixture's expected rate: Σ weight × the model's rate now. */
  public static double rate(double[] weights, double[] rates) {
    double r = 0;
    for (int k = 0; k < KINDS; k++) {
      r += weights[k] * rates[k];
    }
    return r;
  }

  /**
   * A source's self-excitation: Σ over the changes seen of ({@link #ALPHA} / {@link #TAU_HOURS})
   * e^{−age / τ}, changes per hour.
   */
  public static final class Excitation {
    private double level;
    private long at = Long.MIN_VALUE;

    /** The excitation at {@code t}, epoch seconds. */
    public double at(long t) {
      if (at == Long.MIN_VALUE || level == 0) {
        return 0;
      }
      return level * Math.exp(-Math.max(0, t - at) / 3600.0 / TAU_HOURS);
    }

    /** Expected changes it causes over {@code hours} from {@code t}. */
    public double expected(long t, double hours) {
      return at(t) * TAU_HOURS * -Math.expm1(-hours / TAU_HOURS);
    }

    /** A change at {@code t} (not before the last one added). */
    public void add(long t) {
      long when = Math.max(t, at);
      level = at(when) + ALPHA / TAU_HOURS;
      at = when;
    }
  }

  /** The population's kind weights, learned as the mean of its members' (one EM step a commit). */
  public static final class Population {
    private final double[] weights = new double[KINDS];
    private final double[] sum = new double[KINDS];
    private double members;

    /** Starts from equal weights: no kind is assumed before any source is seen. */
    public Population() {
      Arrays.fill(weights, 1.0 / KINDS);
    }

    public double[] weights() {
      return weights;
    }

    /** Adds one member's posterior weights. */
    public void accumulate(double[] memberWeights) {
      for (int k = 0; k < KINDS; k++) {
        sum[k] += memberWeights[k];
      }
      members++;
    }

    /** The new weights: the members' mean, with one pseudo-member at equal weights. */
    public void commit() {
      double total = members + 1;
      for (int k = 0; k < KINDS; k++) {
        weights[k] = (sum[k] + 1.0 / KINDS) / total;
      }
      Arrays.fill(sum, 0);
      members = 0;
    }
  }

  /** Persisted state (version {@value #VERSION}). */
  public record Snapshot(
      int version, double[] score, long scoredAt, double excitation, long excitedAt) {
    /** 2: {@link Kind#RHYTHM} added (version 1 had four kinds and starts afresh). */
    public static final int VERSION = 2;
  }

  public Snapshot snapshot() {
    return new Snapshot(Snapshot.VERSION, score.clone(), scoredAt, excitation.level, excitation.at);
  }

  /** Restores {@link #snapshot()}'s state; an unknown version starts afresh. */
  public static KindMixture restore(double memoryHours, Snapshot s) {
    KindMixture m = new KindMixture(memoryHours);
    if (s != null && s.version() == Snapshot.VERSION && s.score().length == KINDS) {
      System.arraycopy(s.score(), 0, m.score, 0, KINDS);
      m.scoredAt = s.scoredAt();
      m.excitation.level = s.excitation();
      m.excitation.at = s.excitedAt();
    }
    return m;
  }
}
