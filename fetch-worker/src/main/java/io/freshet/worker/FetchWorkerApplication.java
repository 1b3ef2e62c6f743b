package io.freshet.worker;

import io.freshet.worker.cli.FetchOnceCommand;
import java.util.Arrays;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * The fetch-worker service: answers every {@code FetchRequested} with the source's new or changed
 * items and one {@code FetchCompleted}. With {@code fetch ...} as arguments it is instead the
 * fetch-once command (no Kafka, no registry): see {@link FetchOnceCommand}.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class FetchWorkerApplication {

  public static void main(String[] args) {
    if (args.length > 0 && args[0].equals("fetch")) {
      System.exit(
          FetchOnceCommand.run(Arrays.copyOfRange(args, 1, args.length), System.out, System.err));
    }
    SpringApplication.run(FetchWorkerApplication.class, args);
  }
}
