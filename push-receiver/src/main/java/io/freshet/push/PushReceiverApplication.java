package io.freshet.push;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * The push-receiver: subscribes to the WebSub hubs that push-capable sources announce, answers
 * their verifications, and turns each valid notification into a {@code PushReceived} event the
 * scheduler makes a fetch of. The one Freshet service reachable from the internet.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
@EnableScheduling
public class PushReceiverApplication {

  public static void main(String[] args) {
    SpringApplication.run(PushReceiverApplication.class, args);
  }
}
