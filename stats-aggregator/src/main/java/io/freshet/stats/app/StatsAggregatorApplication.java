package io.freshet.stats.app;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** The stats-aggregator service: the topology, its interactive queries, health and metrics. */
@SpringBootApplication(scanBasePackages = "io.freshet.stats")
@ConfigurationPropertiesScan("io.freshet.stats")
public class StatsAggregatorApplication {

  public static void main(String[] args) {
    SpringApplication.run(StatsAggregatorApplication.class, args);
  }
}
