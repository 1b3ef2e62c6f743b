package io.freshet.stack.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.stack.demoweb.Catalog;
import io.freshet.stack.demoweb.DemoSource;
import io.freshet.stack.demoweb.DemoWebSettings;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The steady benchmark's busy web: the bundled catalog's mix of kinds, every source busy. */
class BusyCatalogTest {

  static final DemoWebSettings SETTINGS =
      DemoWebSettings.defaults().withSources(1_496).withMisbehaving(false);

  @Test
  void itHoldsTheBundledCatalogsMixOfKinds() {
    Catalog busy = BusyCatalog.build(SETTINGS, 60, 3_600);
    Catalog bundled = Catalog.fromBundledTraces(SETTINGS);

    assertThat(busy.size()).isEqualTo(1_496);
    assertThat(kinds(busy)).isEqualTo(kinds(bundled));
  }

  @Test
  void everySourcePublishesOncePerStepWithAFullWindowAtTheOrigin() {
    Catalog busy = BusyCatalog.build(SETTINGS, 60, 3_600);
    long origin = SETTINGS.traceStart().getEpochSecond();

    for (DemoSource s : busy.sources()) {
      assertThat(s.publishedCount(origin)).isBetween(SETTINGS.window(), SETTINGS.window() + 1);
      assertThat(s.publishedCount(origin + 600) - s.publishedCount(origin)).isEqualTo(10);
      assertThat(s.publishedCount(origin + 3_600) - s.publishedCount(origin)).isEqualTo(60);
    }
  }

  private static Map<String, Long> kinds(Catalog c) {
    return c.sources().stream()
        .collect(Collectors.groupingBy(s -> s.kind().name(), TreeMap::new, Collectors.counting()));
  }
}
