package io.freshet.worker.config;

import io.freshet.worker.fetch.SourceFetcher;
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
  FetchPath fetchPath(WorkerProperties props, Clock clock) {
    return FetchPath.create(props, clock);
  }

  @Bean
  SourceFetcher sourceFetcher(FetchPath path) {
    return path.fetcher();
  }
}
