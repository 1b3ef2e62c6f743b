package io.freshet.cadence.sim.peer;

import io.freshet.cadence.CadenceEngine;
import io.freshet.cadence.sim.ObserveMode;
import io.freshet.cadence.sim.SimPolicy;
import io.freshet.cadence.source.Category;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Every policy the lab compares, by its report name, in report order. */
public final class PolicyCatalog {

  /**
   * Report order: the oracle first, then Freshet's own, the modes restated from earlier systems
   * (feed_frequency, signal_adaptive), then the peers.
   */
  public static final List<String> NAMES =
      List.of(
          "oracle",
          "adaptive",
          "adaptive_tracker",
          "feed_frequency",
          "signal_adaptive",
          "fixed",
          "nutch",
          "stormcrawler",
          "miniflux",
          "commafeed");

  /**
   * Candidates run only when named in {@code --policies}, measured but not (yet) adopted into
   * {@code adaptive}: {@code adaptive_rhythm} (a weekly rhythm for pages and the starvation
   * ceiling) and {@code adaptive_kinds} (that plus a per-source mixture of the population hazard
   * model and a self-exciting one, {@link io.freshet.cadence.estimate.KindMixture}), {@code
   * adaptive_burst} ({@code adaptive} plus each source's learned burst reaction, {@link
   * io.freshet.cadence.estimate.BurstExcitation}).
   */
  public static final List<String> OPTIONAL =
      List.of(
          "adaptive_bounded",
          "adaptive_mixture",
          "adaptive_rhythm",
          "adaptive_kinds",
          "adaptive_burst",
          "adaptive_ceiling",
          "adaptive_flat",
          "adaptive_declump",
          "adaptive_trust",
          "adaptive_burst_own",
          "adaptive_clump",
          "adaptive_stream",
          "adaptive_stream_flat",
          "adaptive_noshape");

  private PolicyCatalog() {}

  /**
   * The factories, keyed by name. The engine-backed policies read no clock (every call passes an
   * explicit instant), so any clock will do.
   */
  public static Map<String, SimPolicy.Factory> factories() {
    CadenceEngine engine = new CadenceEngine(Clock.systemUTC());
    Map<String, SimPolicy.Factory> m = new LinkedHashMap<>();
    m.put("oracle", OraclePolicy::new);
    m.put("adaptive", setup -> new EngineAdaptivePolicy(engine, category(setup.mode()), setup));
    m.put(
        "adaptive_tracker",
        setup ->
            new EngineAdaptivePolicy(
                engine, category(setup.mode()), setup, EngineAdaptivePolicy.Estimator.TRACKER));
    // The lab's variants of adaptive, each on the population estimator.
    for (Map.Entry<String, EngineAdaptivePolicy.Variant> variant :
        List.of(
            Map.entry("adaptive_bounded", EngineAdaptivePolicy.Variant.BOUNDED),
            Map.entry("adaptive_burst", EngineAdaptivePolicy.Variant.BURST),
            Map.entry("adaptive_flat", EngineAdaptivePolicy.Variant.FLAT),
            Map.entry("adaptive_declump", EngineAdaptivePolicy.Variant.DECLUMP),
            Map.entry("adaptive_trust", EngineAdaptivePolicy.Variant.TRUST),
            Map.entry("adaptive_burst_own", EngineAdaptivePolicy.Variant.OWN_BURST),
            Map.entry("adaptive_clump", EngineAdaptivePolicy.Variant.CLUMP),
            Map.entry("adaptive_stream", EngineAdaptivePolicy.Variant.STREAM),
            Map.entry("adaptive_stream_flat", EngineAdaptivePolicy.Variant.STREAM_FLAT),
            Map.entry("adaptive_noshape", EngineAdaptivePolicy.Variant.NO_SHAPE),
            Map.entry("adaptive_ceiling", EngineAdaptivePolicy.Variant.CEILING),
            Map.entry("adaptive_mixture", EngineAdaptivePolicy.Variant.MIXTURE),
            Map.entry("adaptive_rhythm", EngineAdaptivePolicy.Variant.RHYTHM),
            Map.entry("adaptive_kinds", EngineAdaptivePolicy.Variant.KINDS))) {
      m.put(
          variant.getKey(),
          setup ->
              new EngineAdaptivePolicy(
                  engine,
                  category(setup.mode()),
                  setup,
                  EngineAdaptivePolicy.Estimator.POPULATION,
                  variant.getValue()));
    }
    m.put("feed_frequency", setup -> new EngineFeedFrequencyPolicy(engine));
    m.put(
        "signal_adaptive",
        setup ->
            new EngineSignalAdaptivePolicy(
                engine, category(setup.mode()), setup.trace().sources()));
    m.put("fixed", setup -> new FixedIntervalPolicy(FixedIntervalPolicy.DEFAULT_SECONDS));
    m.put("nutch", setup -> new NutchAdaptivePolicy(setup.trace().sources()));
    m.put("stormcrawler", setup -> new StormCrawlerAdaptivePolicy(setup.trace().sources()));
    m.put("miniflux", setup -> new MinifluxEntryFrequencyPolicy(setup.trace().sources()));
    m.put("commafeed", setup -> new CommaFeedEmpiricalPolicy());
    return m;
  }

  /** The category simulated sources get: feeds are RSS, pages websites. */
  public static Category category(ObserveMode mode) {
    return mode == ObserveMode.FEED ? Category.RSS : Category.WEBSITE;
  }
}
