package io.freshet.cadence.sim;

import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.function.Function;

/**
 * The same comparison over windows of one length, each moved back by a step from the one before:
 * how much a ratio owes to the particular window. A trace of 115 feeds holds a few thousand
 * changes, a few sources hold a third of them, and one source's delay can move fivefold at an equal
 * fetch count with the phase of its fetches; a single window's ratio then says little about the
 * next one. Reporting the spread over shifted windows says it.
 *
 * <p>Windows a few hours apart ({@code --shift-days 0.125}: eight starts over a day) measure the
 * same thing for the phase of the fetches: on a trace where a few dumps hold most of the items, the
 * figure of one start is one draw, and the mean over starts with its standard error is what a
 * policy is expected to do.
 *
 * <p>Pure: the runs are made by the caller; this class lays them out and summarises them (minimum,
 * median, maximum, mean and the mean's standard error of every ratio over the windows).
 */
public final class WindowSpread {

  /** The peers a Freshet policy is compared with (and their {@code _tuned} versions). */
  public static final Set<String> PEERS = Set.of("nutch", "stormcrawler", "miniflux", "commafeed");

  /** The report CSV's header with the window's bounds first. */
  public static final String CSV_HEADER = "window_from,window_to," + PolicyReport.CSV_HEADER;

  /** One window's comparison. */
  public record Shift(long from, long to, List<PolicyReport> reports) {

    public Shift {
      reports = List.copyOf(reports);
    }

    /** The named policy's mean delay in hours, or NaN when it did not run. */
    public double meanDelay(String policy) {
      for (PolicyReport r : reports) {
        if (r.policy().equals(policy)) {
          return r.metrics().meanDelayHours();
        }
      }
      return Double.NaN;
    }

    /** The peer (scaled or tuned) with the lowest mean delay, or null when no peer ran. */
    public PolicyReport bestPeer() {
      PolicyReport best = null;
      for (PolicyReport r : reports) {
        if (isPeer(r.policy())
            && (best == null || r.metrics().meanDelayHours() < best.metrics().meanDelayHours())) {
          best = r;
        }
      }
      return best;
    }

    /** {@code adaptive}'s mean delay divided by the best peer's; NaN without either. */
    public double adaptiveVsBestPeer() {
      PolicyReport best = bestPeer();
      return best == null ? Double.NaN : meanDelay("adaptive") / best.metrics().meanDelayHours();
    }
  }

  private WindowSpread() {}

  /**
   * Whether {@code policy} is one of the {@link #PEERS}: scaled, tuned in sample or out of sample.
   */
  public static boolean isPeer(String policy) {
    String base =
        policy.endsWith("_tuned")
            ? policy.substring(0, policy.length() - 6)
            : policy.endsWith("_oos") ? policy.substring(0, policy.length() - 4) : policy;
    return PEERS.contains(base);
  }

  /**
   * The median of the finite values (the mean of the middle two for an even count); NaN if none.
   */
  public static double median(double[] values) {
    double[] v = Arrays.stream(values).filter(Double::isFinite).sorted().toArray();
    if (v.length == 0) {
      return Double.NaN;
    }
    int m = v.length / 2;
    return v.length % 2 == 1 ? v[m] : (v[m - 1] + v[m]) / 2;
  }

  /**
   * Prints one row per window — its start, the oracle's mean delay, every other policy's mean delay
   * divided by the oracle's, the best peer and {@code adaptive} divided by it — then the minimum,
   * median, maximum, mean and standard error of the mean of each ratio over the windows.
   */
  public static void print(List<Shift> shifts, PrintStream out) {
    Set<String> names = new LinkedHashSet<>();
    for (Shift s : shifts) {
      for (PolicyReport r : s.reports()) {
        if (!r.policy().equals("oracle")) {
          names.add(r.policy());
        }
      }
    }
    List<String> columns = new ArrayList<>(names);
    StringBuilder head =
        new StringBuilder(String.format(Locale.ROOT, "%-20s %9s", "window_from", "oracle_h"));
    for (String c : columns) {
      head.append(" " + pad(c, width(c)));
    }
    head.append(String.format(Locale.ROOT, " %-20s %14s", "best_peer", "adaptive/peer"));
    out.println(head);
    out.println("(policy columns: mean delay ÷ the oracle's in the same window)");
    double[][] ratios = new double[columns.size() + 1][shifts.size()];
    for (int i = 0; i < shifts.size(); i++) {
      Shift s = shifts.get(i);
      StringBuilder row =
          new StringBuilder(
              String.format(
                  Locale.ROOT,
                  "%-20s %9.3f",
                  Instant.ofEpochSecond(s.from()),
                  s.meanDelay("oracle")));
      for (int c = 0; c < columns.size(); c++) {
        double r = s.meanDelay(columns.get(c)) / s.meanDelay("oracle");
        ratios[c][i] = r;
        row.append(" " + number(r, width(columns.get(c))));
      }
      PolicyReport best = s.bestPeer();
      double vsPeer = s.adaptiveVsBestPeer();
      ratios[columns.size()][i] = vsPeer;
      row.append(
          String.format(Locale.ROOT, " %-20s %14.3f", best == null ? "-" : best.policy(), vsPeer));
      out.println(row);
    }
    summary(out, "min", columns, ratios, v -> Arrays.stream(v).filter(Double::isFinite).min());
    summary(out, "median", columns, ratios, v -> finite(median(v)));
    summary(out, "max", columns, ratios, v -> Arrays.stream(v).filter(Double::isFinite).max());
    summary(out, "mean", columns, ratios, v -> Arrays.stream(v).filter(Double::isFinite).average());
    summary(out, "se", columns, ratios, v -> finite(standardError(v)));
  }

  /**
   * The standard error of the mean of the finite values: their sample standard deviation over √n;
   * NaN for fewer than two.
   */
  public static double standardError(double[] values) {
    double[] v = Arrays.stream(values).filter(Double::isFinite).toArray();
    if (v.length < 2) {
      return Double.NaN;
    }
    double mean = Arrays.stream(v).average().orElseThrow();
    double squares = 0;
    for (double x : v) {
      squares += (x - mean) * (x - mean);
    }
    return Math.sqrt(squares / (v.length - 1) / v.length);
  }

  private static OptionalDouble finite(double v) {
    return Double.isFinite(v) ? OptionalDouble.of(v) : OptionalDouble.empty();
  }

  private static void summary(
      PrintStream out,
      String label,
      List<String> columns,
      double[][] ratios,
      Function<double[], OptionalDouble> f) {
    StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "%-20s %9s", label, ""));
    for (int c = 0; c < columns.size(); c++) {
      row.append(" " + number(f.apply(ratios[c]).orElse(Double.NaN), width(columns.get(c))));
    }
    row.append(
        String.format(
            Locale.ROOT, " %-20s %14.3f", "", f.apply(ratios[columns.size()]).orElse(Double.NaN)));
    out.println(row);
  }

  private static int width(String column) {
    return Math.max(9, column.length());
  }

  private static String pad(String text, int width) {
    return " ".repeat(Math.max(0, width - text.length())) + text;
  }

  private static String number(double v, int width) {
    return pad(String.format(Locale.ROOT, "%.3f", v), width);
  }

  /** Every report of every window as CSV lines under {@link #CSV_HEADER}. */
  public static List<String> csv(List<Shift> shifts) {
    List<String> lines = new ArrayList<>();
    lines.add(CSV_HEADER);
    for (Shift s : shifts) {
      for (PolicyReport r : s.reports()) {
        lines.add(
            Instant.ofEpochSecond(s.from())
                + ","
                + Instant.ofEpochSecond(s.to())
                + ","
                + r.toCsv());
      }
    }
    return lines;
  }
}
