package io.freshet.cadence.sim.peer;

import io.freshet.cadence.CadenceEngine;
import io.freshet.cadence.budget.BudgetMode;
import io.freshet.cadence.budget.BudgetPlan;
import io.freshet.cadence.budget.Demand;
import io.freshet.cadence.budget.StarvationCeiling;
import io.freshet.cadence.budget.TailCeiling;
import io.freshet.cadence.config.CadenceDefaults;
import io.freshet.cadence.config.CadenceSpec;
import io.freshet.cadence.estimate.AgeHazard;
import io.freshet.cadence.estimate.BurstExcitation;
import io.freshet.cadence.estimate.ChangeShape;
import io.freshet.cadence.estimate.ClumpSize;
import io.freshet.cadence.estimate.HourOfWeekProfile;
import io.freshet.cadence.estimate.KindMixture;
import io.freshet.cadence.estimate.PopulationPrior;
import io.freshet.cadence.estimate.RateGrid;
import io.freshet.cadence.estimate.RatePosterior;
import io.freshet.cadence.estimate.RateTracker;
import io.freshet.cadence.estimate.StreamingPrior;
import io.freshet.cadence.sim.FetchObservation;
import io.freshet.cadence.sim.ObserveMode;
import io.freshet.cadence.sim.SignalTracker;
import io.freshet.cadence.sim.SimPolicy;
import io.freshet.cadence.sim.SimSetup;
import io.freshet.cadence.source.Category;
import io.freshet.cadence.source.Outcome;
import io.freshet.cadence.source.SourceSnapshot;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Freshet's {@code adaptive}, run as the scheduler and stats-aggregator would, learning only from
 * fetch observations (item times in feeds, changed / not changed in pages):
 *
 * <ul>
 *   <li>{@code change_rate}: each source's {@link RatePosterior} mean under its population's {@link
 *       PopulationPrior} (one EM step a simulated day; the population is the simulated category);
 *   <li>the rate is multiplied by the population's {@link AgeHazard} at the time since the source's
 *       last change (bursts, quiet spells) — the curve of the source's mean-rate stratum ({@link
 *       AgeHazard#RATE_STRATA}), since a burst is a larger multiple of a slow source's mean than of
 *       a fast one's — so the plan spends by the current rate;
 *   <li>{@code rate_shape}: the same hazard over the coming wait, relative to now, times the
 *       source's {@link HourOfWeekProfile} shrunk toward the population's (feeds only: pages give
 *       no publication times);
 *   <li>a {@link SignalTracker} provides the importance facts.
 * </ul>
 *
 * {@link Estimator#TRACKER} is the previous estimator ({@link RateTracker}, category-base prior, no
 * shape), kept for side-by-side comparison as {@code adaptive_tracker}. In both, every {@value
 * #PLAN_HOURS} hours all sources' demands are planned against the budget ({@link BudgetMode#FILL})
 * and every reschedule goes through {@link CadenceEngine#nextDueAt}.
 */
public final class EngineAdaptivePolicy implements SimPolicy {

  /** How often the budget multiplier is recomputed, in simulated hours. */
  public static final int PLAN_HOURS = 3;

  private final CadenceEngine engine;
  private CadenceSpec.Adaptive spec;
  private final CadenceSpec.Adaptive baseSpec;
  private final Category category;
  private final SimSetup setup;

  /** Memory of the population estimator's evidence, days (tuned on the feed and page windows). */
  public static final double MEMORY_DAYS = 60;

  /**
   * Memory of changed / not-changed evidence (pages), days: a page fetch tells at most one bit, so
   * the same precision takes a longer window — and a never-changing page is told from a yearly one
   * only over about a year (365 d: page windows 1.245 / 1.434 × oracle, against 1.241 / 1.537 at 60
   * d; dead pages' share of the fetches 17 % instead of 23 %). The page hazard keeps the same
   * memory (chosen on the 2023–24 page window: 1.421 against 1.434 × oracle with 60 d, geometric
   * mean over ¼×, 1× and 4× the budget).
   */
  public static final double PAGE_MEMORY_DAYS = 365;

  /**
   * Pseudo-items by which a feed's hour-of-week profile is shrunk toward its population's (tuned on
   * the feed windows and the synthetic trace: 10, 30, 100 tried; 30 is a little better on the real
   * feeds, 100 keeps the synthetic benchmark where it was).
   */
  public static final double RHYTHM_PSEUDO_ITEMS = 100;

  /** How often the population prior takes an EM step, in plan rounds. */
  public static final int PRIOR_EVERY_PLANS = 8;

  /** Which change-rate estimator feeds {@code change_rate}. */
  public enum Estimator {
    /** {@link RateTracker}: Gamma / Cho–Garcia-Molina point estimates, category-base prior. */
    TRACKER,
    /** {@link RatePosterior} under a {@link PopulationPrior} learned from all sources. */
    POPULATION
  }

  private final Estimator estimator;
  private final RateTracker[] rates;
  private final RatePosterior[] posteriors;
  private final double[] rateNow;
  private final PopulationPrior prior;
  private final double[] scratch;
  private final AgeHazard hazard;
  private final long[] lastChange;
  private final HourOfWeekProfile[] rhythms;
  private final HourOfWeekProfile populationRhythm;
  private double[] populationShares;
  private int plans;
  private final SignalTracker[] signals;
  private final KindMixture[] kinds;
  private final KindMixture.Population kindPrior = new KindMixture.Population();
  private final double[][] kindWeights;
  private final BurstExcitation[] bursts;
  private final KindMixture[] trusts;
  private final KindMixture.Population trustPrior = new KindMixture.Population();
  private final double[][] trustWeights;
  private final BurstExcitation.Population burstPrior = new BurstExcitation.Population();
  private final ClumpSize[] clumpSizes;
  private final ClumpSize.Population clumpPrior = new ClumpSize.Population();

  /**
   * Which per-source change models {@code adaptive_kinds} mixes ({@link KindMixture}); empty for
   * {@code adaptive}, whose rate is the population hazard model alone.
   */
  private final java.util.Set<KindMixture.Kind> kindsMixed;

  private double[] kindPriorWeights() {
    double[] w = kindPrior.weights().clone();
    double sum = 0;
    for (KindMixture.Kind k : KindMixture.Kind.values()) {
      if (!kindsMixed.contains(k)) {
        w[k.ordinal()] = 0;
      }
      sum += w[k.ordinal()];
    }
    for (int k = 0; k < w.length; k++) {
      w[k] /= sum;
    }
    return w;
  }

  /**
   * Pseudo-items by which a page's hour-of-week profile is shrunk toward its population's. A page
   * change is known only to its fetch interval, so a page's own profile is vaguer than a feed's;
   * chosen on the tuning halves of the page and release traces (30, 100, 400 and the population's
   * profile alone tried: 400 is best or within 1.5 % of the best in every cell).
   */
  public static final double PAGE_RHYTHM_PSEUDO_ITEMS = 400;

  private BudgetPlan plan = BudgetPlan.NONE;

  public EngineAdaptivePolicy(CadenceEngine engine, Category category, SimSetup setup) {
    this(engine, category, setup, Estimator.POPULATION);
  }

  public EngineAdaptivePolicy(
      CadenceEngine engine, Category category, SimSetup setup, Estimator estimator) {
    this(engine, category, setup, estimator, Variant.ADAPTIVE);
  }

  /**
   * What {@code adaptive} adds on top of the population model, for the lab's candidate variants.
   *
   * @param features what is added ({@link Feature}); none: {@code adaptive} as it is
   * @param kinds the per-source change models mixed into the rate ({@link KindMixture}); empty:
   *     none, the population hazard model alone
   */
  public record Variant(java.util.Set<Feature> features, java.util.Set<KindMixture.Kind> kinds) {

    /** One addition to {@code adaptive}; a variant is a set of them. */
    public enum Feature {
      /** pages get an hour-of-week profile too (from each changed interval) */
      PAGE_RHYTHM,
      /** no interval above {@link StarvationCeiling} */
      CEILING,
      /** no interval above {@link TailCeiling} (from the budget and the rates) */
      TAIL_CEILING,
      /**
       * a {@link BurstExcitation} per source on top of the rate (its branching ratio learned from
       * its own fetches, shrunk toward the population's)
       */
      BURST,
      /** no shape in time: no age hazard, no rhythm ({@link Variant#FLAT}) */
      FLAT,
      /** the shape learns from bursts, not items ({@link Variant#DECLUMP}) */
      DECLUMP,
      /** the shape trusted per source as far as it predicted ({@link Variant#TRUST}) */
      TRUST,
      /** the burst reaction shrunk toward 0, not the population's ({@link Variant#OWN_BURST}) */
      OWN_BURST,
      /** a compound feed rate: clumps times their mean size ({@link Variant#CLUMP}) */
      CLUMP,
      /** the prior learned online from each fetch ({@link Variant#STREAM}) */
      STREAM_PRIOR,
      /** the hazard in the rate, no shape ({@link Variant#NO_SHAPE}) */
      NO_SHAPE
    }

    public Variant {
      features =
          features.isEmpty()
              ? java.util.Set.of()
              : java.util.Collections.unmodifiableSet(java.util.EnumSet.copyOf(features));
      kinds = java.util.Set.copyOf(kinds);
    }

    /** {@code adaptive} as it is: nothing added. */
    public static final Variant ADAPTIVE =
        new Variant(java.util.EnumSet.noneOf(Feature.class), java.util.Set.of());

    /**
     * {@code adaptive_burst}: {@code adaptive} whose rate is raised by each source's own learned
     * self-excitation after a fetch finds changes ({@link BurstExcitation}).
     */
    public static final Variant BURST = ADAPTIVE.with(Feature.BURST);

    /**
     * {@code adaptive_flat} (a diagnostic): {@code adaptive}'s rate estimate without its shape in
     * time — no age hazard, no rhythm: every source fetched evenly at the square-root rule's rate
     * of its posterior mean.
     */
    public static final Variant FLAT = ADAPTIVE.with(Feature.FLAT);

    /**
     * {@code adaptive_declump}: {@code adaptive} whose shape in time learns from bursts, not items:
     * a feed's items of one clock hour read by one fetch count once in its hour-of-week profile and
     * once as a change of the age hazard (a dump of a hundred items is one event of the rhythm and
     * of the hazard, not a hundred), while the rate estimate still counts every item.
     */
    public static final Variant DECLUMP = ADAPTIVE.with(Feature.DECLUMP);

    /**
     * {@code adaptive_trust}: {@code adaptive} whose shape in time (age hazard × rhythm) is trusted
     * per source as far as it predicted that source's own fetches better than a constant rate did
     * (a two-model {@link KindMixture}, Poisson against shaped, scored on changed / not changed so
     * a dump is one observation, shrunk toward the population's weights): rate and shape are the
     * mixture's, so a source whose changes come where the shape does not expect them is fetched
     * more evenly.
     */
    public static final Variant TRUST = ADAPTIVE.with(Feature.TRUST);

    /**
     * {@code adaptive_burst_own}: {@link #BURST} whose reaction fires only on the source's own
     * evidence: its branching ratio shrunk toward 0, not toward the population's, with the same
     * pseudo-changes — a source must have shown bursts itself before a change of its has it fetched
     * again soon (on a population with a few dumping feeds, the population's α otherwise spends
     * reaction fetches on every source).
     */
    public static final Variant OWN_BURST = BURST.with(Feature.OWN_BURST);

    /**
     * {@code adaptive_clump}: {@code adaptive} whose feed rate is compound: the rate posterior
     * counts clumps of items (an item an hour or more after the one before starts one), times the
     * source's mean clump size shrunk toward the population's ({@link ClumpSize}), so a source that
     * dumps is not taken for dead in the silence between its dumps. Pages are unchanged.
     */
    public static final Variant CLUMP = ADAPTIVE.with(Feature.CLUMP);

    /**
     * {@code adaptive_stream}: the estimator production runs (the stats-aggregator's {@code
     * RatePopulation}, ADR 0019): the posterior mean under a {@link StreamingPrior} taught by each
     * fetch (online EM, the source counted for the hours since its previous fetch) instead of a
     * daily EM pass over every source, times the age hazard, each source's rate refreshed at its
     * own fetches only; no shape (the scheduler places fetches evenly at the rate).
     */
    public static final Variant STREAM = ADAPTIVE.with(Feature.STREAM_PRIOR).with(Feature.NO_SHAPE);

    /**
     * {@code adaptive_stream_flat}: {@link #STREAM} without the age hazard (ADR 0019's first step).
     */
    public static final Variant STREAM_FLAT = FLAT.with(Feature.STREAM_PRIOR);

    /** {@code adaptive_noshape}: {@code adaptive} with the age hazard in the rate, no shape. */
    public static final Variant NO_SHAPE = ADAPTIVE.with(Feature.NO_SHAPE);

    /** {@code adaptive_ceiling}: {@code adaptive} with the {@link StarvationCeiling} alone. */
    public static final Variant CEILING = ADAPTIVE.with(Feature.CEILING);

    /** {@code adaptive_bounded}: {@code adaptive} with the {@link TailCeiling}. */
    public static final Variant BOUNDED = ADAPTIVE.with(Feature.TAIL_CEILING);

    /** {@code adaptive_rhythm}: a rhythm for pages and the starvation ceiling. */
    public static final Variant RHYTHM = ADAPTIVE.with(Feature.PAGE_RHYTHM).with(Feature.CEILING);

    /**
     * {@code adaptive_mixture}: per source, the hazard, rhythm (pages too) and bursty models mixed
     * by their record on the source's own fetches, with the {@link TailCeiling}.
     */
    public static final Variant MIXTURE =
        ADAPTIVE
            .with(Feature.PAGE_RHYTHM)
            .withKinds(KindMixture.Kind.HAZARD, KindMixture.Kind.RHYTHM, KindMixture.Kind.BURSTY)
            .with(Feature.TAIL_CEILING);

    /** {@code adaptive_kinds}: {@link #RHYTHM} and the hazard / bursty mixture per source. */
    public static final Variant KINDS =
        RHYTHM.withKinds(KindMixture.Kind.HAZARD, KindMixture.Kind.BURSTY);

    /** Whether {@code feature} is added. */
    public boolean has(Feature feature) {
      return features.contains(feature);
    }

    /** This variant with {@code feature} added. */
    Variant with(Feature feature) {
      java.util.EnumSet<Feature> added = java.util.EnumSet.of(feature);
      added.addAll(features);
      return new Variant(added, kinds);
    }

    Variant withKinds(KindMixture.Kind... mixed) {
      return new Variant(features, java.util.Set.of(mixed));
    }
  }

  private final Variant variant;

  /** {@code adaptive_stream}'s prior (production's), or null. */
  private final StreamingPrior streamPrior;

  private final double[] streamScratch = new double[RateGrid.STANDARD.size()];

  /** The production prior's forgetting (the stats-aggregator's {@code rate-prior-memory}). */
  public static final double STREAM_PRIOR_MEMORY_HOURS = 7 * 24;

  /** The production prior's pseudo-sources ({@code rate-prior-pseudo-sources}). */
  public static final double STREAM_PRIOR_PSEUDO_SOURCES = 1;

  /** Rounds of tail ceiling → plan (the ceiling raises the price it is read at). */
  private static final int TAIL_ROUNDS = 3;

  public EngineAdaptivePolicy(
      CadenceEngine engine,
      Category category,
      SimSetup setup,
      Estimator estimator,
      Variant variant) {
    this.estimator = estimator;
    this.engine = engine;
    this.category = category;
    this.setup = setup;
    CadenceSpec.Adaptive d = CadenceDefaults.adaptive(category);
    this.spec =
        new CadenceSpec.Adaptive(
            category,
            d.min(),
            d.max(),
            d.reference(),
            d.window(),
            d.objective(),
            setup.importance());
    this.baseSpec = spec;
    this.variant = variant;
    this.streamPrior =
        variant.has(Variant.Feature.STREAM_PRIOR)
            ? new StreamingPrior(
                RateGrid.STANDARD,
                1.0 / (category.base().toSeconds() / 3600.0),
                STREAM_PRIOR_MEMORY_HOURS,
                STREAM_PRIOR_PSEUDO_SOURCES)
            : null;
    this.kindsMixed = variant.kinds();
    int n = setup.trace().sources();
    this.kinds = new KindMixture[n];
    this.bursts = new BurstExcitation[n];
    this.clumpSizes = new ClumpSize[n];
    this.trusts = new KindMixture[n];
    this.trustWeights = new double[n][];
    kindWeights = new double[n][];
    double prior = 1.0 / (category.base().toSeconds() / 3600.0);
    double windowHours = spec.window().toSeconds() / 3600.0;
    rates = new RateTracker[n];
    posteriors = new RatePosterior[n];
    rateNow = new double[n];
    signals = new SignalTracker[n];
    this.prior = new PopulationPrior(RateGrid.STANDARD, prior);
    this.scratch = new double[RateGrid.STANDARD.size()];
    // the hazard forgets as the rate evidence of its mode does
    this.hazard =
        new AgeHazard(
            (setup.mode() == ObserveMode.PAGE ? PAGE_MEMORY_DAYS : MEMORY_DAYS) * 24,
            AgeHazard.RATE_STRATA);
    this.lastChange = new long[n];
    java.util.Arrays.fill(lastChange, Long.MIN_VALUE);
    this.rhythms = new HourOfWeekProfile[n];
    this.populationRhythm =
        new HourOfWeekProfile(
            (setup.mode() == ObserveMode.PAGE ? PAGE_MEMORY_DAYS : MEMORY_DAYS) * 24);
    if (estimator == Estimator.POPULATION
        && (setup.mode() == ObserveMode.FEED || variant.has(Variant.Feature.PAGE_RHYTHM))) {
      double memory = (setup.mode() == ObserveMode.PAGE ? PAGE_MEMORY_DAYS : MEMORY_DAYS) * 24;
      for (int s = 0; s < n; s++) {
        rhythms[s] = new HourOfWeekProfile(memory);
      }
    }
    for (int s = 0; s < n; s++) {
      if (estimator == Estimator.TRACKER) {
        rates[s] = new RateTracker(windowHours, prior);
      } else {
        posteriors[s] =
            new RatePosterior(
                RateGrid.STANDARD,
                (setup.mode() == ObserveMode.PAGE ? PAGE_MEMORY_DAYS : MEMORY_DAYS) * 24);
        rateNow[s] = this.prior.mean();
        if (variant.has(Variant.Feature.CLUMP) && setup.mode() == ObserveMode.FEED) {
          clumpSizes[s] = new ClumpSize(MEMORY_DAYS * 24);
        }
        if (variant.has(Variant.Feature.BURST)) {
          bursts[s] =
              new BurstExcitation(
                  (setup.mode() == ObserveMode.PAGE ? PAGE_MEMORY_DAYS : MEMORY_DAYS) * 24);
        }
        if (variant.has(Variant.Feature.TRUST)) {
          trusts[s] =
              new KindMixture(
                  (setup.mode() == ObserveMode.PAGE ? PAGE_MEMORY_DAYS : MEMORY_DAYS) * 24);
          trustWeights[s] = trustPriorWeights();
        }
        if (!kindsMixed.isEmpty()) {
          this.kinds[s] =
              new KindMixture(
                  (setup.mode() == ObserveMode.PAGE ? PAGE_MEMORY_DAYS : MEMORY_DAYS) * 24);
          kindWeights[s] = kindPriorWeights();
        }
      }
      signals[s] = new SignalTracker();
    }
  }

  @Override
  public double onFetch(FetchObservation obs) {
    int s = obs.source();
    if (estimator == Estimator.TRACKER) {
      learn(obs, rates[s]);
    } else {
      if (kinds[s] != null && !obs.bootstrap()) {
        learnKind(obs);
      }
      if (bursts[s] != null && !obs.bootstrap()) {
        learnBurst(obs);
      }
      if (trusts[s] != null && !obs.bootstrap()) {
        learnTrust(obs);
      }
      learnHazard(obs);
      learnRhythm(obs);
      if (clumpSizes[s] != null) {
        learnClumps(obs, posteriors[s], clumpSizes[s]);
      } else {
        learn(obs, posteriors[s]);
      }
      if (streamPrior != null) {
        // as the stats-aggregator: the rate under the prior as it is, then the prior learns
        rateNow[s] = posteriors[s].posterior(streamPrior.weights(), streamScratch);
        if (!obs.bootstrap()) {
          streamPrior.add(streamScratch, (obs.now() - obs.previous()) / 3600.0, obs.now());
        }
      } else {
        rateNow[s] = mean(s);
      }
    }
    if (!obs.bootstrap()) {
      signals[s].observe(obs);
    }
    Instant now = Instant.ofEpochSecond(obs.now());
    SourceSnapshot snapshot = snapshot(s, obs.now());
    if (estimator == Estimator.POPULATION
        && !variant.has(Variant.Feature.FLAT)
        && !variant.has(Variant.Feature.NO_SHAPE)) {
      snapshot = snapshot.toBuilder().rateShape(shape(s, obs.now())).build();
    }
    Instant next = engine.nextDueAt(spec, snapshot, Outcome.success(now), now, plan);
    return Duration.between(now, next).toSeconds();
  }

  @Override
  public long planPeriodSeconds() {
    return PLAN_HOURS * 3600L;
  }

  @Override
  public void plan(long now) {
    if (estimator == Estimator.POPULATION) {
      hazard.refresh();
      populationShares =
          populationRhythm.total() > 0
              ? populationRhythm.multipliers(
                  null, RHYTHM_PSEUDO_ITEMS, new double[HourOfWeekProfile.HOURS])
              : null;
    }
    spec = baseSpec;
    if (estimator == Estimator.POPULATION && variant.has(Variant.Feature.CEILING)) {
      // no source is starved: never slower than a few even shares of the budget
      spec =
          withMax(
              StarvationCeiling.interval(
                  rates.length, setup.budgetPerHour(), baseSpec.min(), baseSpec.max()));
    }
    if (estimator == Estimator.POPULATION
        && streamPrior == null
        && ++plans % PRIOR_EVERY_PLANS == 1) {
      if (variant.has(Variant.Feature.BURST)) {
        for (BurstExcitation b : bursts) {
          burstPrior.accumulate(b);
        }
        burstPrior.commit();
      }
      if (variant.has(Variant.Feature.TRUST)) {
        for (double[] w : trustWeights) {
          trustPrior.accumulate(w);
        }
        trustPrior.commit();
        for (int s = 0; s < trusts.length; s++) {
          trusts[s].weights(trustPriorWeights(), trustWeights[s]);
        }
      }
      if (!kindsMixed.isEmpty()) {
        for (int s = 0; s < kinds.length; s++) {
          kindPrior.accumulate(kindWeights[s]);
        }
        kindPrior.commit();
        for (int s = 0; s < kinds.length; s++) {
          kinds[s].weights(kindPriorWeights(), kindWeights[s]);
        }
      }
      for (RatePosterior p : posteriors) {
        p.posterior(prior.weights(), scratch);
        prior.accumulate(scratch);
      }
      prior.commit();
      if (variant.has(Variant.Feature.CLUMP)) {
        for (ClumpSize c : clumpSizes) {
          if (c != null) {
            clumpPrior.accumulate(c);
          }
        }
        clumpPrior.commit();
      }
      for (int s = 0; s < posteriors.length; s++) {
        rateNow[s] = mean(s);
      }
    }
    Instant at = Instant.ofEpochSecond(now);
    List<Demand> demands = new ArrayList<>(rates.length);
    for (int s = 0; s < rates.length; s++) {
      demands.add(engine.demand(spec, snapshot(s, now), at));
    }
    if (estimator == Estimator.POPULATION && variant.has(Variant.Feature.TAIL_CEILING)) {
      // the tail: no interval above what keeps the expected share of changes waiting longer than
      // the even-split interval at TailCeiling.TAIL_SHARE. The intervals it reads are at the
      // plan's price, which the ceiling itself raises (its fetches come from the others): a few
      // rounds of ceiling → plan → ceiling settle it
      double maxHours = spec.max().toSeconds() / 3600.0;
      double even = rates.length / setup.budgetPerHour();
      List<Demand> unbounded = demands;
      BudgetPlan p = engine.planBudget(demands, setup.budgetPerHour(), BudgetMode.FILL);
      for (int round = 0; round < TAIL_ROUNDS; round++) {
        double ceiling = TailCeiling.hours(unbounded, p, even, maxHours);
        if (ceiling >= maxHours) {
          break;
        }
        long minutes = Math.max(spec.min().toMinutes(), (long) Math.floor(ceiling * 60));
        spec = withMax(Duration.ofMinutes(minutes));
        demands = bounded(unbounded, 60.0 / minutes);
        p = engine.planBudget(demands, setup.budgetPerHour(), BudgetMode.FILL);
      }
    }
    plan = engine.planBudget(demands, setup.budgetPerHour(), BudgetMode.FILL);
  }

  /** The demands with no interval above 1 / {@code minRate} hours. */
  private static List<Demand> bounded(List<Demand> demands, double minRate) {
    List<Demand> out = new ArrayList<>(demands.size());
    for (Demand d : demands) {
      out.add(
          d instanceof Demand.Adaptive a
              ? new Demand.Adaptive(
                  a.lambda(),
                  a.weight(),
                  a.basePrice(),
                  a.objective(),
                  Math.min(a.maxRate(), Math.max(a.minRate(), minRate)),
                  a.maxRate())
              : d);
    }
    return out;
  }

  private CadenceSpec.Adaptive withMax(Duration max) {
    return new CadenceSpec.Adaptive(
        baseSpec.category(),
        baseSpec.min(),
        max,
        baseSpec.reference(),
        baseSpec.window(),
        baseSpec.objective(),
        baseSpec.importance());
  }

  private static void learn(FetchObservation obs, RateTracker tracker) {
    if (obs.mode() == ObserveMode.PAGE) {
      if (!obs.bootstrap()) {
        tracker.observeChange(obs.now(), obs.previous(), obs.changed());
      }
      return;
    }
    int listed = obs.listedCount();
    if (obs.bootstrap() || obs.overflowed()) {
      // The list may be truncated: the evidence starts at its oldest item, which is the boundary.
      int first = obs.bootstrap() ? 0 : obs.firstNewListed();
      if (listed - first >= 1) {
        tracker.observeItems(obs.now(), listed - first - 1, obs.listedTime(first));
      }
    } else {
      tracker.observeItems(obs.now(), obs.visibleNew(), obs.previous());
    }
  }

  /**
   * The source's mean item rate: the posterior mean, times its clump size when the posterior counts
   * clumps ({@code adaptive_clump}).
   */
  private double mean(int s) {
    double m = posteriors[s].posterior(prior.weights(), scratch);
    return clumpSizes[s] == null ? m : m * clumpSizes[s].size(clumpPrior.size());
  }

  /**
   * {@link #learn(FetchObservation, RatePosterior)} counting clumps instead of items (the evidence
   * of a compound-Poisson source about its clump rate), each new item also shown to the source's
   * {@link ClumpSize}.
   */
  private static void learnClumps(FetchObservation obs, RatePosterior p, ClumpSize c) {
    int listed = obs.listedCount();
    boolean truncated = obs.bootstrap() || obs.overflowed();
    int first = obs.bootstrap() ? 0 : obs.firstNewListed();
    int count = 0;
    for (int i = first; i < listed; i++) {
      long before = i > 0 ? obs.listedTime(i - 1) : Long.MIN_VALUE;
      boolean starts = c.observe(obs.listedTime(i), before);
      if (starts && (!truncated || i > first)) {
        count++;
      }
    }
    if (truncated) {
      if (listed - first >= 1) {
        p.observeItems(obs.now(), count, obs.listedTime(first));
      }
    } else {
      p.observeItems(obs.now(), count, obs.previous());
    }
  }

  private static void learn(FetchObservation obs, RatePosterior p) {
    if (obs.mode() == ObserveMode.PAGE) {
      if (!obs.bootstrap()) {
        p.observeChange(obs.now(), obs.previous(), obs.changed());
      }
      return;
    }
    int listed = obs.listedCount();
    if (obs.bootstrap() || obs.overflowed()) {
      int first = obs.bootstrap() ? 0 : obs.firstNewListed();
      if (listed - first >= 1) {
        p.observeItems(obs.now(), listed - first - 1, obs.listedTime(first));
      }
    } else {
      p.observeItems(obs.now(), obs.visibleNew(), obs.previous());
    }
  }

  private io.freshet.cadence.source.RateShape shape(int s, long now) {
    double[] how = null;
    if (rhythms[s] != null) {
      how =
          rhythms[s].multipliers(
              populationShares,
              setup.mode() == ObserveMode.PAGE ? PAGE_RHYTHM_PSEUDO_ITEMS : RHYTHM_PSEUDO_ITEMS,
              new double[HourOfWeekProfile.HOURS]);
    }
    ChangeShape shaped = ChangeShape.relativeTo(hazard, rateNow[s], lastChange[s], how, now);
    if (trusts[s] == null || lastChange[s] == Long.MIN_VALUE) {
      return shaped;
    }
    double w = trustWeights[s][KindMixture.Kind.HAZARD.ordinal()];
    double hNow = hazard.multiplier(Math.max(0, now - lastChange[s]) / 3600.0, rateNow[s]);
    return new TrustedShape(shaped, w, hNow);
  }

  /**
   * The mixture of a constant rate (weight 1 − w) and the shaped one (w), relative to the mixture's
   * rate now: m(t) = (1 − w + w h(now) shaped(t)) / (1 − w + w h(now)), shaped(t) being relative to
   * h(now).
   */
  private record TrustedShape(io.freshet.cadence.source.RateShape shaped, double w, double hNow)
      implements io.freshet.cadence.source.RateShape {
    @Override
    public double multiplier(long t) {
      double now = 1 - w + w * hNow;
      return now > 0 ? (1 - w + w * hNow * shaped.multiplier(t)) / now : shaped.multiplier(t);
    }

    @Override
    public long constantUntil(long t) {
      return shaped.constantUntil(t);
    }
  }

  /** The population's trust weights with every kind but Poisson and the shaped one left out. */
  private double[] trustPriorWeights() {
    double[] w = trustPrior.weights().clone();
    double sum = w[KindMixture.Kind.POISSON.ordinal()] + w[KindMixture.Kind.HAZARD.ordinal()];
    for (KindMixture.Kind k : KindMixture.Kind.values()) {
      w[k.ordinal()] =
          k == KindMixture.Kind.POISSON || k == KindMixture.Kind.HAZARD ? w[k.ordinal()] / sum : 0;
    }
    return w;
  }

  /**
   * Scores the constant-rate model against the shaped one (age hazard × the source's rhythm) on
   * whether this fetch found a change (a feed's dump is one observation, not a hundred: the score
   * judges where changes come, which is what the shape moves fetches by).
   */
  private void learnTrust(FetchObservation obs) {
    int s = obs.source();
    long from = obs.previous();
    double hours = Math.max(0, obs.now() - from) / 3600.0;
    double mean = rateNow[s];
    double flat = mean * hours;
    double shaped =
        lastChange[s] == Long.MIN_VALUE
            ? flat
            : mean * shapedIntegral(s, from, hours, (from - lastChange[s]) / 3600.0);
    double[] expected = new double[KindMixture.KINDS];
    java.util.Arrays.fill(expected, flat);
    expected[KindMixture.Kind.HAZARD.ordinal()] = shaped;
    boolean changed = obs.mode() == ObserveMode.PAGE ? obs.changed() : obs.visibleNew() > 0;
    trusts[s].observeChange(obs.now(), expected, changed);
    trusts[s].weights(trustPriorWeights(), trustWeights[s]);
  }

  /**
   * ∫ h(age) × rhythm(t) dt over {@code hours} from {@code from} (age {@code age0} there): hour by
   * hour for up to two weeks where the source has a rhythm, the hazard alone beyond (and for
   * pages).
   */
  private double shapedIntegral(int s, long from, double hours, double age0) {
    double mean = rateNow[s];
    if (rhythms[s] == null) {
      return hazardIntegral(age0, hours, mean);
    }
    double[] how =
        rhythms[s].multipliers(
            populationShares,
            setup.mode() == ObserveMode.PAGE ? PAGE_RHYTHM_PSEUDO_ITEMS : RHYTHM_PSEUDO_ITEMS,
            new double[HourOfWeekProfile.HOURS]);
    double sum = 0;
    double done = 0;
    long t = from;
    while (done < hours && done < 24 * 14) {
      double step = Math.min(1, hours - done);
      double age = Math.max(0, age0) + done + step / 2;
      sum += step * hazard.multiplier(age, mean) * how[HourOfWeekProfile.hourOfWeek(t)];
      done += step;
      t += 3600;
    }
    return sum + (done < hours ? hazardIntegral(Math.max(0, age0) + done, hours - done, mean) : 0);
  }

  /** Records the newly listed items' publication hours (feeds), a page's change (pages). */
  private void learnRhythm(FetchObservation obs) {
    HourOfWeekProfile own = rhythms[obs.source()];
    if (own == null) {
      return;
    }
    if (obs.mode() == ObserveMode.PAGE) {
      // a change is known to the interval only: intervals longer than a week say nothing of the
      // hour; shorter ones share the change among their hours by the population's rhythm so far
      if (obs.bootstrap() || obs.now() - obs.previous() > 7 * 86400L) {
        return;
      }
      own.observed(obs.previous(), obs.now(), obs.now());
      populationRhythm.observed(obs.previous(), obs.now(), obs.now());
      if (obs.changed()) {
        own.addSpread(obs.previous(), obs.now(), populationShares, obs.now());
        populationRhythm.addSpread(obs.previous(), obs.now(), populationShares, obs.now());
      }
      return;
    }
    int listed = obs.listedCount();
    // the span the recorded items cover completely: since the previous fetch, or (a first fetch,
    // an overflowing list) since the oldest listed item
    boolean whole = obs.bootstrap() || obs.overflowed();
    long since = whole ? (listed > 0 ? obs.listedTime(0) : obs.now()) : obs.previous();
    own.observed(since, obs.now(), obs.now());
    populationRhythm.observed(since, obs.now(), obs.now());
    long hour = Long.MIN_VALUE;
    for (int i = obs.bootstrap() ? 0 : obs.firstNewListed(); i < listed; i++) {
      long t = obs.listedTime(i);
      if (variant.has(Variant.Feature.DECLUMP)) {
        // one event an hour: the items of a dump say when the source publishes once, not n times
        if (Math.floorDiv(t, 3600L) == hour) {
          continue;
        }
        hour = Math.floorDiv(t, 3600L);
      }
      own.add(t, obs.now());
      populationRhythm.add(t, obs.now());
    }
  }

  /** Feeds the population's age hazard and moves the source's last-change time. */
  private void learnHazard(FetchObservation obs) {
    int s = obs.source();
    double mean = rateNow[s];
    if (obs.mode() == ObserveMode.PAGE) {
      if (!obs.bootstrap() && lastChange[s] != Long.MIN_VALUE) {
        hazard.observe(
            obs.now(),
            mean,
            (obs.previous() - lastChange[s]) / 3600.0,
            (obs.now() - obs.previous()) / 3600.0,
            obs.changed() ? 1 : 0,
            false);
      }
      if (!obs.bootstrap() && obs.changed()) {
        lastChange[s] = obs.previous() + (obs.now() - obs.previous()) / 2;
      }
      return;
    }
    int listed = obs.listedCount();
    if (obs.bootstrap() || obs.overflowed() || lastChange[s] == Long.MIN_VALUE) {
      if (listed > 0) {
        lastChange[s] = obs.listedTime(listed - 1);
      }
      return;
    }
    long cursor = obs.previous();
    for (int i = obs.firstNewListed(); i < listed; i++) {
      long t = Math.max(cursor, obs.listedTime(i));
      if (variant.has(Variant.Feature.DECLUMP)
          && i > obs.firstNewListed()
          && Math.floorDiv(t, 3600L) == Math.floorDiv(lastChange[s], 3600L)) {
        // the rest of a dump: one change of the hazard's, not one per item
        continue;
      }
      hazard.observe(
          obs.now(), mean, (cursor - lastChange[s]) / 3600.0, (t - cursor) / 3600.0, 1, true);
      lastChange[s] = t;
      cursor = t;
    }
    hazard.observe(
        obs.now(), mean, (cursor - lastChange[s]) / 3600.0, (obs.now() - cursor) / 3600.0, 0, true);
  }

  /**
   * Shows the source's burst excitation what this fetch saw (before the hazard moves the source's
   * last change): each new item against the base rate at its age, a page's interval against the
   * base's expected count.
   */
  private void learnBurst(FetchObservation obs) {
    int s = obs.source();
    BurstExcitation b = bursts[s];
    double mean = rateNow[s];
    double alpha = burstPrior.alpha();
    if (obs.mode() == ObserveMode.PAGE) {
      long from = obs.previous();
      double hours = Math.max(0, obs.now() - from) / 3600.0;
      double base =
          lastChange[s] == Long.MIN_VALUE
              ? mean * hours
              : mean * hazardIntegral((from - lastChange[s]) / 3600.0, hours, mean);
      b.observeInterval(from, obs.now(), obs.changed(), base, alpha);
      return;
    }
    long last = lastChange[s];
    for (int i = obs.firstNewListed(); i < obs.listedCount(); i++) {
      long t = Math.min(obs.now(), Math.max(obs.previous(), obs.listedTime(i)));
      double base =
          last == Long.MIN_VALUE ? mean : mean * hazard.multiplier((t - last) / 3600.0, mean);
      b.observeChange(t, obs.now(), base, alpha);
      last = t;
    }
  }

  /** Scores the source's change models on what this fetch saw, then records its changes. */
  private void learnKind(FetchObservation obs) {
    int s = obs.source();
    KindMixture kind = kinds[s];
    long from = obs.previous();
    double hours = Math.max(0, obs.now() - from) / 3600.0;
    double mean = rateNow[s];
    double shaped =
        lastChange[s] == Long.MIN_VALUE
            ? mean * hours
            : mean * hazardIntegral((from - lastChange[s]) / 3600.0, hours, mean);
    double[] expected = new double[KindMixture.KINDS];
    expected[KindMixture.Kind.POISSON.ordinal()] = mean * hours;
    expected[KindMixture.Kind.HAZARD.ordinal()] = shaped;
    expected[KindMixture.Kind.RHYTHM.ordinal()] = mean * rhythmIntegral(s, from, hours);
    expected[KindMixture.Kind.BURSTY.ordinal()] = shaped + kind.excitation().expected(from, hours);
    expected[KindMixture.Kind.DEAD.ordinal()] = KindMixture.DEAD_RATE * hours;
    if (obs.mode() == ObserveMode.PAGE) {
      kind.observeChange(obs.now(), expected, obs.changed());
      if (obs.changed()) {
        kind.excitation().add(from + (obs.now() - from) / 2);
      }
    } else {
      kind.observeCount(obs.now(), expected, obs.visibleNew());
      for (int i = obs.firstNewListed(); i < obs.listedCount(); i++) {
        kind.excitation().add(Math.min(obs.now(), Math.max(from, obs.listedTime(i))));
      }
    }
    kind.weights(kindPriorWeights(), kindWeights[s]);
  }

  /** The source's rhythm (its profile shrunk toward the population's), or null: none kept. */
  private double[] rhythmMultipliers(int s) {
    if (rhythms[s] == null || !kindsMixed.contains(KindMixture.Kind.RHYTHM)) {
      return null;
    }
    return rhythms[s].multipliers(
        populationShares,
        setup.mode() == ObserveMode.PAGE ? PAGE_RHYTHM_PSEUDO_ITEMS : RHYTHM_PSEUDO_ITEMS,
        new double[HourOfWeekProfile.HOURS]);
  }

  /**
   * ∫ rhythm over {@code hours} from {@code from} (hour by hour for up to two weeks; a longer
   * interval is the mean, 1 an hour, beyond that).
   */
  private double rhythmIntegral(int s, long from, double hours) {
    double[] how = rhythmMultipliers(s);
    if (how == null) {
      return hours;
    }
    double sum = 0;
    double done = 0;
    long t = from;
    while (done < hours && done < 24 * 14) {
      double step = Math.min(1, hours - done);
      sum += step * how[HourOfWeekProfile.hourOfWeek(t)];
      done += step;
      t += 3600;
    }
    return sum + (hours - done);
  }

  /** ∫ h(age) d(age) over [age0, age0 + hours], h piecewise constant on the hazard's bins. */
  private double hazardIntegral(double age0, double hours, double mean) {
    double a = Math.max(0, age0);
    double end = a + hours;
    double sum = 0;
    for (double edge : AgeHazard.EDGES_HOURS) {
      if (a >= end) {
        break;
      }
      if (edge <= a) {
        continue;
      }
      double b = Math.min(edge, end);
      sum += (b - a) * hazard.multiplier((a + b) / 2, mean);
      a = b;
    }
    if (a < end) {
      sum += (end - a) * hazard.multiplier(a + 1, mean);
    }
    return sum;
  }

  private Double changeRate(int s, long now) {
    if (kinds[s] == null) {
      return changeRate0(s, now);
    }
    double mean = rateNow[s];
    double[] rates = new double[KindMixture.KINDS];
    rates[KindMixture.Kind.POISSON.ordinal()] = mean;
    rates[KindMixture.Kind.HAZARD.ordinal()] = changeRate0(s, now);
    double[] how = rhythmMultipliers(s);
    rates[KindMixture.Kind.RHYTHM.ordinal()] =
        how == null ? mean : mean * how[HourOfWeekProfile.hourOfWeek(now)];
    rates[KindMixture.Kind.BURSTY.ordinal()] =
        rates[KindMixture.Kind.HAZARD.ordinal()] + kinds[s].excitation().at(now);
    rates[KindMixture.Kind.DEAD.ordinal()] = KindMixture.DEAD_RATE;
    return KindMixture.rate(kindWeights[s], rates);
  }

  private Double changeRate0(int s, long now) {
    if (bursts[s] != null) {
      return changeRate1(s, now)
          + bursts[s].rate(now, variant.has(Variant.Feature.OWN_BURST) ? 0 : burstPrior.alpha());
    }
    return changeRate1(s, now);
  }

  private Double changeRate1(int s, long now) {
    if (estimator == Estimator.POPULATION) {
      if (lastChange[s] != Long.MIN_VALUE && !variant.has(Variant.Feature.FLAT)) {
        // the current rate: the mean times the hazard of the source's rate stratum at its age, so
        // the budget plan spends by it (the shape then moves fetches relative to it)
        double age = Math.max(0, now - lastChange[s]) / 3600.0;
        double h = hazard.multiplier(age, rateNow[s]);
        if (trusts[s] != null) {
          double w = trustWeights[s][KindMixture.Kind.HAZARD.ordinal()];
          return rateNow[s] * (1 - w + w * h);
        }
        return rateNow[s] * h;
      }
      return rateNow[s];
    }
    RateTracker r = rates[s];
    return r.hasEvidence() ? r.rate(now) : null;
  }

  private SourceSnapshot snapshot(int s, long now) {
    SignalTracker t = signals[s];
    return SourceSnapshot.builder()
        .category(category)
        .windowFetches(t.windowFetches())
        .avgSignalYield(t.avgYield())
        .dominantSignalType(t.dominantType())
        .medianDaysToEvent(t.medianDaysToEvent())
        .changeRatePerHour(changeRate(s, now))
        .build();
  }
}
