package io.freshet.cadence.replay;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The replay's chart as an inline SVG: each configuration's fetches per hour (x) against its mean
 * delay from a change to its detection (y), one labelled point per configuration, both axes from 0
 * to a round number with "nice" ticks (steps of 1, 2 or 5 times a power of ten) labelled with as
 * many decimals as the step needs.
 */
final class TradeOffChart {

  static final int WIDTH = 820;
  static final int HEIGHT = 520;
  static final int LEFT = 80;
  static final int RIGHT = 40;
  static final int TOP = 30;
  static final int BOTTOM = 70;

  private static final String[] COLOURS = {
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"
  };

  /** Roughly how wide a character of the 12 px labels is. */
  private static final double CHAR_WIDTH = 7;

  private TradeOffChart() {}

  /** One axis: 0 to {@code max} in steps of {@code step}, labels with {@code decimals}. */
  record Axis(double max, double step, int decimals) {

    /** An axis that holds {@code largest} with four to eight nice ticks. */
    static Axis upTo(double largest) {
      if (!(largest > 0) || Double.isInfinite(largest)) {
        return new Axis(1, 0.2, 1);
      }
      double step = niceStep(largest / 5);
      double max = Math.ceil(largest / step - 1e-9) * step;
      if (max < largest * 1.02) { // leave room so the largest point is not on the frame
        max += step;
      }
      return new Axis(max, step, TradeOffChart.decimals(step));
    }

    List<Double> ticks() {
      List<Double> t = new ArrayList<>();
      long n = Math.round(max / step);
      for (long i = 0; i <= n; i++) {
        t.add(i * step);
      }
      return t;
    }

    String label(double v) {
      return String.format(Locale.ROOT, "%." + decimals + "f", v);
    }
  }

  /** The nice number (1, 2 or 5 × 10^k) nearest to {@code raw} (Heckbert's rounding). */
  static double niceStep(double raw) {
    double magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
    double f = raw / magnitude;
    double nice = f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10;
    return nice * magnitude;
  }

  /** The decimals that show {@code step} (and so every multiple of it) exactly: 0.25 → 2. */
  static int decimals(double step) {
    for (int d = 0; d < 10; d++) {
      double scaled = step * Math.pow(10, d);
      if (Math.abs(scaled - Math.rint(scaled)) < 1e-6 * Math.max(1, scaled)) {
        return d;
      }
    }
    return 10;
  }

  static String svg(List<ReplayResult> results, boolean simulated) {
    Axis x = Axis.upTo(results.stream().mapToDouble(ReplayResult::fetchesPerHour).max().orElse(0));
    Axis y =
        Axis.upTo(results.stream().mapToDouble(r -> r.metrics().meanDelayHours()).max().orElse(0));
    int pw = WIDTH - LEFT - RIGHT;
    int ph = HEIGHT - TOP - BOTTOM;
    var svg = new StringBuilder();
    svg.append(
        String.format(
            Locale.ROOT,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
                + " viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"fetches per hour against mean"
                + " delay, one point per configuration\" font-family=\"sans-serif\">%n",
            WIDTH,
            HEIGHT,
            WIDTH,
            HEIGHT));
    svg.append(
        String.format(
            Locale.ROOT,
            "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#fafafa\" stroke=\"#999\"/>%n",
            LEFT,
            TOP,
            pw,
            ph));
    for (double v : x.ticks()) {
      double px = LEFT + pw * v / x.max();
      svg.append(
          String.format(
              Locale.ROOT,
              "<g class=\"x-tick\"><line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>"
                  + "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">%s</text></g>%n",
              px,
              TOP,
              px,
              TOP + ph,
              px,
              TOP + ph + 16,
              x.label(v)));
    }
    for (double v : y.ticks()) {
      double py = TOP + ph - ph * v / y.max();
      svg.append(
          String.format(
              Locale.ROOT,
              "<g class=\"y-tick\"><line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                  + "<text x=\"%d\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%s</text></g>%n",
              LEFT,
              py,
              LEFT + pw,
              py,
              LEFT - 6,
              py + 4,
              y.label(v)));
    }
    String xTitle = "fetches per hour" + (simulated ? " (simulated time)" : "");
    String yTitle = simulated ? "mean delay (h, simulated time)" : "mean delay (h)";
    svg.append(
        String.format(
            Locale.ROOT,
            "<text class=\"x-title\" x=\"%d\" y=\"%d\" font-size=\"13\" text-anchor=\"middle\">"
                + "%s</text>%n"
                + "<text class=\"y-title\" x=\"18\" y=\"%d\" font-size=\"13\" text-anchor=\"middle\""
                + " transform=\"rotate(-90 18 %d)\">%s</text>%n",
            LEFT + pw / 2,
            HEIGHT - 24,
            xTitle,
            TOP + ph / 2,
            TOP + ph / 2,
            yTitle));
    List<double[]> placed = new ArrayList<>(); // label boxes: x0, y0, x1, y1
    for (int i = 0; i < results.size(); i++) {
      ReplayResult r = results.get(i);
      String c = COLOURS[i % COLOURS.length];
      double px = LEFT + pw * r.fetchesPerHour() / x.max();
      double py = TOP + ph - ph * r.metrics().meanDelayHours() / y.max();
      String name = ReplayResult.escape(r.candidate().name());
      double labelWidth = r.candidate().name().length() * CHAR_WIDTH;
      boolean leftOfPoint = px + 9 + labelWidth > LEFT + pw;
      double lx = leftOfPoint ? px - 9 : px + 9;
      double x0 = leftOfPoint ? lx - labelWidth : lx;
      double ly = labelY(placed, x0, x0 + labelWidth, py + 4);
      placed.add(new double[] {x0, ly - 12, x0 + labelWidth, ly + 2});
      svg.append(
          String.format(
              Locale.ROOT,
              "<g class=\"configuration\" data-name=\"%s\">"
                  + "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"%s\">"
                  + "<title>%s (%s): %.2f fetches per hour, mean delay %.3f h, p95 %.3f h</title>"
                  + "</circle><text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" fill=\"%s\"%s>%s</text>"
                  + "</g>%n",
              name,
              px,
              py,
              c,
              name,
              ReplayResult.escape(r.candidate().policy()),
              r.fetchesPerHour(),
              r.metrics().meanDelayHours(),
              r.metrics().p95DelayHours(),
              lx,
              ly,
              c,
              leftOfPoint ? " text-anchor=\"end\"" : "",
              name));
    }
    svg.append("</svg>\n");
    return svg.toString();
  }

  /**
   * The baseline of a label spanning {@code x0..x1} nearest to {@code wanted} that overlaps no
   * label placed before (points of similar cost and delay would otherwise print their names over
   * each other), staying inside the plot.
   */
  private static double labelY(List<double[]> placed, double x0, double x1, double wanted) {
    for (int k = 0; k < 40; k++) {
      double y = wanted + (k % 2 == 0 ? 1 : -1) * ((k + 1) / 2) * 14;
      if (y < TOP + 12 || y > HEIGHT - BOTTOM - 2) {
        continue;
      }
      boolean free = true;
      for (double[] b : placed) {
        if (x0 < b[2] && x1 > b[0] && y - 12 < b[3] && y + 2 > b[1]) {
          free = false;
          break;
        }
      }
      if (free) {
        return y;
      }
    }
    return wanted;
  }
}
