package io.freshet.worker.config;

import io.freshet.worker.fetch.SourceFetcher;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The fetch path as beans: one per instance, shared by every consumer thread. */
@Configuration(proxyBeanMethods = false)
class WorkerConfig {

  @Bean
  Clock clock() {
    return Clock.systemUTC();
  }

  @Bean(destroyMethod = "close")
  FetchPath fetchPath(WorkerProperties props, Clock clock, MeterRegistry meters) {
    // feeds read only after healing: counted per fix, the fetch itself is ok
    return FetchPath.create(
        props,
        clock,
        fixes ->
            fixes.forEach(
                fix -> meters.counter("freshet.worker.feeds.recovered", "fix", fix).increment()));
  }

  @Bean
  SourceFetcher sourceFetcher(FetchPath path) {
    return path.fetcher();
  }
}
