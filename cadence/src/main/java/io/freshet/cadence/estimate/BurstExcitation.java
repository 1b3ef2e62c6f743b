package io.freshet.cadence.estimate;

/**
 * A source's own burst reaction: a self-exciting (Hawkes) part of its rate, on top of a base rate
 * the caller owns (the posterior mean times the population's age hazard), whose strength is learned
 * from the source's own fetches.
 *
 * <p>Every change seen at {@code tⱼ} adds α e^{−(t − tⱼ)/τ} / τ changes per hour at {@code t ≥ tⱼ}:
 * α expected further changes (the branching ratio) spread over the next few τ. After a fetch finds
 * new items the rate is raised at once, so the next fetch comes sooner, and the raise decays with τ
 * = {@value #TAU_HOURS} h.
 *
 * <p>α is estimated online by EM: a change at {@code t} whose base rate was μ and whose unit
 * excitation (the kernel sum of the changes before it) was K is caused by the excitation with
 * probability r = αK / (μ + αK) (α here the source's own, shrunk toward ½, so that EM can leave 0);
 * α is the sum of these responsibilities over the number of changes that could have caused them,
 * both fading with the rate evidence's memory, shrunk toward the population's α (learned the same
 * way over all sources, {@link Population}) with {@value #PSEUDO_CHANGES} pseudo-changes, and never
 * above {@value #MAX_ALPHA} (a branching ratio of 1 or more explodes). A page (changed / not
 * changed) gives its one change the interval's midpoint and the responsibility E / (Λ + E) of the
 * excitation's expected count E against the base's Λ.
 *
 * <p>On synthetic sources of known kind ({@code BurstExcitationTest}, a fetch right after each
 * change): a Poisson source (one change in 10 h) has α below 0.15 by its 50th change and below 0.1
 * from its 100th on (close pairs of a Poisson process look a little like bursts); a source of
 * bursts (a change followed within minutes by 9 more: a true branching ratio of 0.9) has α above
 * 0.5 from its 30th change (3 bursts) on and between 0.8 and 0.95 after 300.
 *
 * <p>Not thread-safe; one per source.
 */
public final class BurstExcitation {

  /** Time constant of the excitation, hours. */
  public static final double TAU_HOURS = 1.0;

  /** Pseudo-changes by which a source's α is shrunk toward the population's. */
  public static final double PSEUDO_CHANGES = 5;

  /** Largest branching ratio (a stationary Hawkes process needs α &lt; 1). */
  public static final double MAX_ALPHA = 0.95;

  private final double memoryHours;
  private double kernel;
  private long kernelAt = Long.MIN_VALUE;
  private long jumpFetch = Long.MIN_VALUE;
  private double triggered;
  private double parents;
  private long fadedAt = Long.MIN_VALUE;

  /**
   * @param memoryHours time constant with which old evidence of α fades
   */
  public BurstExcitation(double memoryHours) {
    if (!(memoryHours > 0)) {
      throw new IllegalArgumentException("memory must be positive");
    }
    this.memoryHours = memoryHours;
  }

  /** The unit kernel sum Σⱼ e^{−(t − tⱼ)/τ} / τ at {@code t}, per hour. */
  public double kernel(long t) {
    if (kernelAt == Long.MIN_VALUE || kernel == 0) {
      return 0;
    }
    return kernel * Math.exp(-Math.max(0, t - kernelAt) / 3600.0 / TAU_HOURS);
  }

  /** The source's branching ratio, shrunk toward the population's {@code priorAlpha}. */
  public double alpha(double priorAlpha) {
    double a = (triggered + PSEUDO_CHANGES * priorAlpha) / (parents + PSEUDO_CHANGES);
    return Math.min(MAX_ALPHA, Math.max(0, a));
  }

  /** The excitation's rate at {@code t}, changes per hour. */
  public double rate(long t, double priorAlpha) {
    return alpha(priorAlpha) * kernel(t);
  }

  /** Expected changes the excitation causes over {@code hours} from {@code t}. */
  public double expected(long t, double hours, double priorAlpha) {
    return rate(t, priorAlpha) * TAU_HOURS * -Math.expm1(-hours / TAU_HOURS);
  }

  /**
   * A change seen at {@code t} (feeds: its publication time; not before the previous one), observed
   * by a fetch at {@code now}, with the base rate {@code baseRate} per hour at {@code t}.
   *
   * @return the responsibility of the excitation for it
   */
  public double observeChange(long t, long now, double baseRate, double priorAlpha) {
    fade(now);
    double e = eStepAlpha() * kernel(t);
    double r = e + baseRate > 0 ? e / (e + Math.max(0, baseRate)) : 0;
    triggered += r;
    add(t, now);
    return r;
  }

  /**
   * A page fetch at {@code now} whose previous fetch was at {@code previous}: changed or not, with
   * {@code baseExpected} changes expected from the base rate over the interval.
   *
   * @return the responsibility of the excitation for the change (0 if none)
   */
  public double observeInterval(
      long previous, long now, boolean changed, double baseExpected, double priorAlpha) {
    fade(now);
    if (!changed) {
      return 0;
    }
    double hours = Math.max(0, now - previous) / 3600.0;
    double e = eStepAlpha() * kernel(previous) * TAU_HOURS * -Math.expm1(-hours / TAU_HOURS);
    double r = e + baseExpected > 0 ? e / (e + Math.max(0, baseExpected)) : 0;
    triggered += r;
    add(previous + (now - previous) / 2, now);
    return r;
  }

  /**
   * The α the E-step weighs causes with: the source's own, shrunk toward ½ (not the population's:
   * an E-step at α = 0 would find no change caused by a burst and keep α at 0 for ever).
   */
  private double eStepAlpha() {
    return Math.min(MAX_ALPHA, (triggered + PSEUDO_CHANGES * 0.5) / (parents + PSEUDO_CHANGES));
  }

  private void add(long t, long now) {
    long when = kernelAt == Long.MIN_VALUE ? t : Math.max(t, kernelAt);
    // one fetch's changes raise the kernel by one change's worth at most: a dump of a hundred items
    // seen at once is one burst, not a hundred (which would have the source fetched every few
    // minutes for hours); each still counts as a change α is learned from
    double jump = now == jumpFetch ? 0 : 1 / TAU_HOURS;
    jumpFetch = now;
    kernel = kernel(when) + jump;
    kernelAt = when;
    parents += 1;
  }

  private void fade(long now) {
    if (fadedAt != Long.MIN_VALUE && now > fadedAt) {
      double keep = Math.exp(-(now - fadedAt) / 3600.0 / memoryHours);
      triggered *= keep;
      parents *= keep;
    }
    fadedAt = fadedAt == Long.MIN_VALUE ? now : Math.max(fadedAt, now);
  }

  /** Evidence of α: faded responsibilities and parent changes (for the population). */
  double triggered() {
    return triggered;
  }

  double parents() {
    return parents;
  }

  /**
   * The population's α: its members' pooled responsibilities over their pooled changes (one EM step
   * a commit), starting from 0 (no source is assumed bursty before any burst is seen), with {@value
   * #PSEUDO_CHANGES} pseudo-changes at 0.
   */
  public static final class Population {
    private double alpha;
    private double sumTriggered;
    private double sumParents;

    public double alpha() {
      return alpha;
    }

    public void accumulate(BurstExcitation member) {
      sumTriggered += member.triggered();
      sumParents += member.parents();
    }

    public void commit() {
      alpha = Math.min(MAX_ALPHA, sumTriggered / (sumParents + PSEUDO_CHANGES));
      sumTriggered = 0;
      sumParents = 0;
    }
  }
}
