package io.freshet.cadence.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class WindowSpreadTest {

  private static PolicyReport report(String policy, double meanDelay, double oracleDelay) {
    RunMetrics m = new RunMetrics(100, meanDelay, 0, 0, 1, 0, 0, 10, 1, false);
    return new PolicyReport(policy, m, meanDelay / oracleDelay);
  }

  private static WindowSpread.Shift shift(long from, double oracle, double adaptive, double cf) {
    return new WindowSpread.Shift(
        from,
        from + 86_400,
        List.of(
            report("oracle", oracle, oracle),
            report("adaptive", adaptive, oracle),
            report("fixed", 2 * oracle, oracle),
            report("commafeed", 2 * cf, oracle),
            report("commafeed_tuned", cf, oracle)));
  }

  @Test
  void theBestPeerIsTheFastestScaledOrTunedPeerAndNeverAFreshetPolicy() {
    WindowSpread.Shift s = shift(0, 2.0, 1.0, 3.0);
    assertThat(s.bestPeer().policy()).isEqualTo("commafeed_tuned");
    assertThat(s.adaptiveVsBestPeer()).isCloseTo(1.0 / 3.0, within(1e-12));
    assertThat(WindowSpread.isPeer("nutch_tuned")).isTrue();
    assertThat(WindowSpread.isPeer("adaptive")).isFalse();
    assertThat(WindowSpread.isPeer("oracle_tuned")).isFalse();
    WindowSpread.Shift noPeers =
        new WindowSpread.Shift(0, 1, List.of(report("oracle", 1, 1), report("adaptive", 1, 1)));
    assertThat(noPeers.bestPeer()).isNull();
    assertThat(noPeers.adaptiveVsBestPeer()).isNaN();
  }

  @Test
  void theMedianIgnoresWhatIsNotANumberAndAveragesTheMiddlePair() {
    assertThat(WindowSpread.median(new double[] {3, 1, 2})).isEqualTo(2);
    assertThat(WindowSpread.median(new double[] {4, 1, Double.NaN, 3, 2})).isEqualTo(2.5);
    assertThat(WindowSpread.median(new double[] {Double.NaN})).isNaN();
  }

  @Test
  void printsARowPerWindowThenMinMedianMaxMeanAndStandardErrorOfEveryRatio() {
    List<WindowSpread.Shift> shifts =
        List.of(
            shift(0, 2.0, 1.0, 4.0),
            shift(-604_800, 2.0, 3.0, 2.0),
            shift(-1_209_600, 1.0, 1.5, 1.0));
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    WindowSpread.print(shifts, new PrintStream(buf, true, StandardCharsets.UTF_8));
    List<String[]> rows =
        buf.toString(StandardCharsets.UTF_8).lines().map(l -> l.trim().split("\\s+")).toList();
    assertThat(rows.get(0))
        .containsExactly(
            "window_from",
            "oracle_h",
            "adaptive",
            "fixed",
            "commafeed",
            "commafeed_tuned",
            "best_peer",
            "adaptive/peer");
    assertThat(rows.get(2))
        .containsExactly(
            "1970-01-01T00:00:00Z",
            "2.000",
            "0.500",
            "2.000",
            "4.000",
            "2.000",
            "commafeed_tuned",
            "0.250");
    // adaptive ÷ oracle is 0.5, 1.5, 1.5; adaptive ÷ best peer 0.25, 1.5, 1.5
    assertThat(rows.get(5)).containsExactly("min", "0.500", "2.000", "2.000", "1.000", "0.250");
    assertThat(rows.get(6)).containsExactly("median", "1.500", "2.000", "2.000", "1.000", "1.500");
    assertThat(rows.get(7)).containsExactly("max", "1.500", "2.000", "4.000", "2.000", "1.500");
    // commafeed ÷ oracle 4, 2, 2; commafeed_tuned 2, 1, 1; se = sample sd ÷ √3
    assertThat(rows.get(8)).containsExactly("mean", "1.167", "2.000", "2.667", "1.333", "1.083");
    assertThat(rows.get(9)).containsExactly("se", "0.333", "0.000", "0.667", "0.333", "0.417");
    assertThat(rows).hasSize(10);
  }

  @Test
  void theStandardErrorIsTheSampleDeviationOverRootNAndNeedsTwoValues() {
    // deviations −1, 0, 1 from 2: sample variance 1, se 1/√3
    assertThat(WindowSpread.standardError(new double[] {1, 2, 3, Double.NaN}))
        .isCloseTo(1 / Math.sqrt(3), within(1e-12));
    assertThat(WindowSpread.standardError(new double[] {5})).isNaN();
    assertThat(WindowSpread.standardError(new double[] {4, 4})).isZero();
  }

  @Test
  void theCsvPutsEachWindowsBoundsBeforeEveryReport() {
    List<String> lines = WindowSpread.csv(List.of(shift(0, 2.0, 1.0, 4.0)));
    assertThat(lines.getFirst()).isEqualTo("window_from,window_to," + PolicyReport.CSV_HEADER);
    assertThat(lines).hasSize(6);
    assertThat(lines.get(2)).startsWith("1970-01-01T00:00:00Z,1970-01-02T00:00:00Z,adaptive,100,");
  }
}
