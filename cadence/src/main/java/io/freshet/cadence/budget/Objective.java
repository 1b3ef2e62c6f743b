package io.freshet.cadence.budget;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What the {@code adaptive} allocation minimises, for a source with change rate λ, importance w and
 * fetch rate f, with a price m per fetch (the Lagrange multiplier of the budget).
 */
public enum Objective {
  /**
   * Expected detection delay: a change waits on average 1/(2f) for the next periodic fetch, so the
   * cost rate is wλ/(2f). Minimising wλ/(2f) + m·f gives the square-root rule f = √(wλ/(2m)) — the
   * allocation that minimises the mean change-to-detection delay over all changes.
   */
  DELAY {
    @Override
    public double rate(double lambda, double weight, double price) {
      return Math.sqrt(weight * lambda / (2 * price));
    }

    @Override
    public double priceFor(double rate) {
      // A weight-1 source changing once per hour is fetched at {@code rate}.
      return 1.0 / (2 * rate * rate);
    }
  },
  /**
   * Harmonic staleness (Kolobov, Peres, Lubetzky, Horvitz, "Optimal Freshness Crawl Under
   * Politeness Constraints", SIGIR 2019, and NeurIPS 2019): with Poisson changes and crawls the
   * cost rate is w·ln(1 + λ/f); setting its derivative to −m gives f² + λf − wλ/m = 0, f = (−λ +
   * √(λ² + 4wλ/m))/2. Diminishing returns: a source changing far faster than it can be fetched gets
   * about w/m fetches, not more.
   */
  HARMONIC {
    @Override
    public double rate(double lambda, double weight, double price) {
      double disc = lambda * lambda + 4 * weight * lambda / price;
      // Rationalised form of (−λ + √disc)/2: stable when 4wλ/m ≪ λ².
      return 2 * weight * lambda / price / (lambda + Math.sqrt(disc));
    }

    @Override
    public double priceFor(double rate) {
      return 1.0 / (rate * rate + rate);
    }
  };

  /** The optimal fetch rate (per hour) for change rate {@code lambda} (per hour) at a price. */
  public abstract double rate(double lambda, double weight, double price);

  /** The price at which a weight-1 source changing once per hour is fetched at {@code rate}. */
  public abstract double priceFor(double rate);

  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static Optional<Objective> parse(String text) {
    return Arrays.stream(values()).filter(o -> o.wireName().equalsIgnoreCase(text)).findFirst();
  }

  public static String allowed() {
    return Arrays.stream(values()).map(Objective::wireName).collect(Collectors.joining(", "));
  }
}
