package io.freshet.cadence.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;

/**
 * The replay chart's SVG as a test reads it: it must parse as XML; each configuration is a group
 * holding one point and a label with its name, inside the plot.
 *
 * @param points each configuration's point (cx, cy), in chart order
 * @param xTicks the x axis' tick labels, left to right
 * @param yTicks the y axis' tick labels, bottom to top
 */
record ChartCheck(Map<String, double[]> points, List<String> xTicks, List<String> yTicks) {

  static ChartCheck parse(String svg) throws Exception {
    var doc =
        DocumentBuilderFactory.newInstance()
            .newDocumentBuilder()
            .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    Map<String, double[]> points = new LinkedHashMap<>();
    List<String> xTicks = new ArrayList<>();
    List<String> yTicks = new ArrayList<>();
    var groups = doc.getElementsByTagName("g");
    for (int i = 0; i < groups.getLength(); i++) {
      Element g = (Element) groups.item(i);
      String label = g.getElementsByTagName("text").item(0).getTextContent();
      switch (g.getAttribute("class")) {
        case "x-tick" -> xTicks.add(label);
        case "y-tick" -> yTicks.add(label);
        case "configuration" -> {
          assertThat(g.getElementsByTagName("circle").getLength()).isEqualTo(1);
          Element c = (Element) g.getElementsByTagName("circle").item(0);
          double cx = Double.parseDouble(c.getAttribute("cx"));
          double cy = Double.parseDouble(c.getAttribute("cy"));
          assertThat(cx).isBetween(80.0, 780.0);
          assertThat(cy).isBetween(30.0, 450.0);
          assertThat(label).isEqualTo(g.getAttribute("data-name"));
          points.put(label, new double[] {cx, cy});
        }
        default -> throw new AssertionError("unexpected group " + g.getAttribute("class"));
      }
    }
    return new ChartCheck(points, xTicks, yTicks);
  }
}
