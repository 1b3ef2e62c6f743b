package io.freshet.stack.demoweb;

import java.io.IOException;
import java.time.Clock;
import java.util.concurrent.CountDownLatch;

/**
 * Runs the demo web until the process ends: {@code java -jar local-stack/target/demo-web.jar},
 * settings from {@code DEMO_WEB_*} variables (see {@link DemoWebSettings}).
 */
public final class DemoWebMain {

  private DemoWebMain() {}

  public static void main(String[] args) throws IOException, InterruptedException {
    DemoWebSettings settings;
    try {
      settings = DemoWebSettings.fromEnvironment(System.getenv());
    } catch (IllegalArgumentException e) {
      System.err.println("demo-web: " + e.getMessage());
      System.exit(2);
      return;
    }
    DemoWeb web;
    try {
      web = DemoWeb.start(settings, Clock.systemUTC());
    } catch (java.net.BindException e) {
      System.err.println(
          "demo-web: port " + settings.port() + " on " + settings.bindAddress() + " is in use");
      System.exit(3);
      return;
    }
    CountDownLatch done = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  web.close();
                  done.countDown();
                },
                "demo-web-stop"));
    System.out.println(
        "demo-web: "
            + web.catalog().size()
            + " sources on port "
            + web.port()
            + ", origin "
            + web.clock().origin()
            + ", trace "
            + java.time.Instant.ofEpochSecond(web.clock().traceStart())
            + " x"
            + web.clock().scale());
    done.await();
  }
}
