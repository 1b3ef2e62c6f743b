package io.freshet.cadence.replay;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TradeOffChartTest {

  @Test
  void chartAxesGoToARoundNumberInNiceStepsWithTheDecimalsTheyNeed() {
    var small = TradeOffChart.Axis.upTo(1.1);
    assertThat(small.step()).isEqualTo(0.2);
    assertThat(small.ticks().stream().map(small::label))
        .containsExactly("0.0", "0.2", "0.4", "0.6", "0.8", "1.0", "1.2");
    var demo = TradeOffChart.Axis.upTo(12.81); // fetches per hour of a replayed demo
    assertThat(demo.ticks().stream().map(demo::label))
        .containsExactly("0", "2", "4", "6", "8", "10", "12", "14");
    var tiny = TradeOffChart.Axis.upTo(0.083);
    assertThat(tiny.ticks().stream().map(tiny::label))
        .containsExactly("0.00", "0.02", "0.04", "0.06", "0.08", "0.10");
    var large = TradeOffChart.Axis.upTo(243.5);
    assertThat(large.ticks().stream().map(large::label))
        .containsExactly("0", "50", "100", "150", "200", "250");
    assertThat(TradeOffChart.Axis.upTo(0).max()).isEqualTo(1.0);
    assertThat(TradeOffChart.decimals(0.25)).isEqualTo(2);
    assertThat(TradeOffChart.niceStep(0.35)).isEqualTo(0.5);
    assertThat(TradeOffChart.niceStep(0.0012)).isEqualTo(0.001);
  }
}
