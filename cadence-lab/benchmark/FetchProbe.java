// Where a policy's fetches fall around a source's changes, and throw-away variants of adaptive that
// need no code in the lab (issue 23, branch cadence-burst). A single-file program on the lab's jar:
//
//   ./mvnw -o -q -pl cadence-lab -am package -DskipTests
//   $(bin/find-java) -cp cadence-lab/target/cadence-lab.jar cadence-lab/benchmark/FetchProbe.java \
//       TRACE FROM TO BUDGET POLICY...
//
// Feeds only (--observe feed). Every POLICY is calibrated to equal cost (as the simulator does) and
// run once; the last line per policy is "NAME scale=… fetches=… mean=… p95=…". POLICY is any name
// of the lab's catalog or one of the variants below. Environment:
//   W=SOURCE WT=INSTANT  print every fetch of SOURCE in the 24 h from WT: time, items seen, next
//                        interval (h, scaled)
//   PS=1                 print "PS policy source delay-hours fetches" for every source
// Variants: cf<max h>h<divisor> (CommaFeed at one grid point, e.g. cf4h8); cap<c> (adaptive with
// no interval above c × sources ÷ budget, c in 1.5 2 3 4); react<h> (adaptive refetching within h
// hours, 0.25 or 0.5, after a fetch that saw two or more new items, the newest under an hour old).
import io.freshet.cadence.sim.EqualCost;
import io.freshet.cadence.sim.FetchObservation;
import io.freshet.cadence.sim.ObserveMode;
import io.freshet.cadence.sim.RunMetrics;
import io.freshet.cadence.sim.SimPolicy;
import io.freshet.cadence.sim.SimSetup;
import io.freshet.cadence.sim.Simulator;
import io.freshet.cadence.sim.Trace;
import io.freshet.cadence.sim.TraceCsv;
import io.freshet.cadence.sim.peer.CommaFeedEmpiricalPolicy;
import io.freshet.cadence.sim.peer.PolicyCatalog;
import java.io.BufferedReader;
import java.io.FileReader;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

public class FetchProbe {

  /** {@code inner}'s policy with each interval passed through {@code f(observation, seconds)}. */
  interface Adjust {
    double apply(FetchObservation o, double seconds);
  }

  static SimPolicy.Factory adjusted(SimPolicy.Factory inner, Adjust f) {
    return setup -> {
      SimPolicy p = inner.create(setup);
      return new SimPolicy() {
        public double onFetch(FetchObservation o) {
          return f.apply(o, p.onFetch(o));
        }

        public void scaledBy(double scale) {
          p.scaledBy(scale);
        }

        public long planPeriodSeconds() {
          return p.planPeriodSeconds();
        }

        public void plan(long now) {
          p.plan(now);
        }
      };
    };
  }

  public static void main(String[] a) throws Exception {
    Trace t = TraceCsv.read(new BufferedReader(new FileReader(a[0])));
    long from = Instant.parse(a[1]).getEpochSecond();
    long to = Instant.parse(a[2]).getEpochSecond();
    double budget = Double.parseDouble(a[3]);
    Simulator sim =
        new Simulator(
            new SimSetup(t, ObserveMode.FEED, from, to, budget, SimSetup.FEED_SIZE, true));
    Map<String, SimPolicy.Factory> f = new LinkedHashMap<>(PolicyCatalog.factories());
    SimPolicy.Factory adaptive = f.get("adaptive");
    for (int max : new int[] {1, 4, 24, 96, 336}) {
      for (int div : new int[] {1, 2, 4, 8, 16}) {
        f.put("cf" + max + "h" + div, s -> new CommaFeedEmpiricalPolicy(max * 3600.0, div));
      }
    }
    for (double c : new double[] {1.5, 2, 3, 4}) {
      double cap = c * t.sources() / budget * 3600;
      f.put("cap" + c, adjusted(adaptive, (o, r) -> Math.min(cap, r)));
    }
    for (double c : new double[] {0.25, 0.5}) {
      double cap = c * 3600;
      f.put(
          "react" + c,
          adjusted(
              adaptive,
              (o, r) ->
                  !o.bootstrap()
                          && o.visibleNew() >= 2
                          && o.now() - o.listedTime(o.listedCount() - 1) < 3600
                      ? Math.min(r, cap)
                      : r));
    }
    String watch = System.getenv().getOrDefault("W", "");
    long watchFrom =
        Instant.parse(System.getenv().getOrDefault("WT", "1970-01-01T00:00:00Z")).getEpochSecond();
    for (int i = 4; i < a.length; i++) {
      String name = a[i];
      SimPolicy.Factory base = f.get(name);
      if (base == null) {
        throw new IllegalArgumentException("unknown policy " + name);
      }
      double scale = EqualCost.calibrate(sim, name, base, x -> {});
      SimPolicy.Factory logging =
          adjusted(
              base,
              (o, r) -> {
                if (t.ids().get(o.source()).equals(watch)
                    && o.now() >= watchFrom
                    && o.now() < watchFrom + 86400) {
                  System.out.printf(
                      "%s %s %s new=%d next=%.2fh%n",
                      name, watch, Instant.ofEpochSecond(o.now()), o.visibleNew(), r * scale / 3600);
                }
                return r;
              });
      RunMetrics m = sim.run(logging, scale, true, Long.MAX_VALUE);
      if (System.getenv("PS") != null) {
        for (int q = 0; q < t.sources(); q++) {
          System.out.printf(
              "PS %s %s %.1f %d%n",
              name, t.ids().get(q), m.perSource().delaySumHours()[q], m.perSource().fetches()[q]);
        }
      }
      System.out.printf(
          "%s scale=%.3f fetches=%d mean=%.3f p95=%.2f%n",
          name, scale, m.fetches(), m.meanDelayHours(), m.p95DelayHours());
    }
  }
}
