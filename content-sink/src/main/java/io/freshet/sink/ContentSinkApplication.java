package io.freshet.sink;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** The content-sink service: stores every fetched item version once, by content hash. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class ContentSinkApplication {

  public static void main(String[] args) {
    SpringApplication.run(ContentSinkApplication.class, args);
  }
}
