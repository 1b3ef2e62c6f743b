package io.freshet.scheduler.api.tenants;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.scheduler.api.ApiClient;
import io.freshet.scheduler.api.ApiItSupport;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class TenantApiIT extends ApiItSupport {

  @Test
  void aTenantShowsItsTierSourceCountAndLimits() {
    String id = "acme-" + UUID.randomUUID().toString().substring(0, 8);

    ApiClient.Response created =
        api.post("/tenants", "{\"id\": \"" + id + "\", \"tier\": \"free\"}");

    assertThat(created.status()).isEqualTo(201);
    assertThat(created.headers().firstValue("Location"))
        .hasValueSatisfying(l -> assertThat(l).endsWith("/tenants/" + id));
    JsonNode view = created.json();
    assertThat(view.get("tier").stringValue()).isEqualTo("free");
    assertThat(view.get("max_sources").isNull()).isTrue();
    assertThat(view.get("source_count").longValue()).isZero();
    assertThat(view.get("limits").get("max_sources").intValue()).isEqualTo(50);
    assertThat(view.get("limits").get("min_interval_minutes").longValue()).isEqualTo(720);

    api.newFeed(id, "One", "https://one.example.org/feed");
    assertThat(api.get("/tenants/" + id).json().get("source_count").longValue()).isEqualTo(1);

    JsonNode pro = api.put("/tenants/" + id, "{\"tier\": \"pro\"}").json();
    assertThat(pro.get("tier").stringValue()).isEqualTo("pro");
    assertThat(pro.get("limits").get("max_sources").intValue()).isEqualTo(10_000);
    assertThat(pro.get("limits").get("min_interval_minutes").longValue()).isEqualTo(60);

    JsonNode capped =
        api.put(
                "/tenants/" + id,
                "{\"id\": \"" + id + "\", \"tier\": \"starter\", \"max_sources\": 7}")
            .json();
    assertThat(capped.get("max_sources").intValue()).isEqualTo(7);
    assertThat(capped.get("limits").get("max_sources").intValue()).isEqualTo(7);
    assertThat(capped.get("limits").get("min_interval_minutes").longValue()).isEqualTo(360);
  }

  @Test
  void duplicatesUnknownsAndBadBodiesAreRefused() {
    String id = api.newTenant("starter");

    assertThat(api.post("/tenants", "{\"id\": \"" + id + "\", \"tier\": \"pro\"}").status())
        .isEqualTo(409);
    assertThat(api.get("/tenants/nobody-" + UUID.randomUUID()).status()).isEqualTo(404);
    assertThat(api.put("/tenants/nobody-" + UUID.randomUUID(), "{\"tier\": \"pro\"}").status())
        .isEqualTo(404);

    ApiClient.Response bad =
        api.post("/tenants", "{\"id\": \"a b\", \"tier\": \"gold\", \"max_sources\": -1}");
    assertThat(bad.status()).isEqualTo(400);
    ApiClient.Response unknown =
        api.post("/tenants", "{\"id\": \"ok\", \"tier\": \"pro\", \"x\": 1}");
    assertThat(unknown.status()).isEqualTo(400);
    assertThat(unknown.errors())
        .containsExactly("x: unknown field; allowed fields: id, max_sources, tier");
    assertThat(bad.errors())
        .hasSize(3)
        .anySatisfy(m -> assertThat(m).startsWith("id: must be 1 to 100 characters"))
        .anySatisfy(
            m ->
                assertThat(m)
                    .startsWith("tier: unknown tier \"gold\"; allowed values: free, starter, pro"))
        .anySatisfy(m -> assertThat(m).startsWith("max_sources: must be a whole number"));

    ApiClient.Response rename = api.put("/tenants/" + id, "{\"id\": \"other\", \"tier\": \"pro\"}");
    assertThat(rename.status()).isEqualTo(400);
    assertThat(rename.errors()).singleElement().asString().startsWith("id: cannot be changed");
    assertThat(api.get("/tenants/" + id).json().get("tier").stringValue()).isEqualTo("starter");
  }

  @Test
  void tenantsAreListedWithTheirSourceCounts() {
    String one = api.newTenant("free");
    String two = api.newTenant("pro", 3);
    api.newFeed(two, "A", "https://a.example.org/feed");

    ApiClient.Response r = api.get("/tenants");

    assertThat(r.status()).isEqualTo(200);
    List<JsonNode> items = r.json().get("items").valueStream().toList();
    assertThat(items).extracting(i -> i.get("id").stringValue()).contains(one, two).isSorted();
    JsonNode listed =
        items.stream().filter(i -> i.get("id").stringValue().equals(two)).findFirst().orElseThrow();
    assertThat(listed.get("source_count").longValue()).isEqualTo(1);
    assertThat(listed.get("limits").get("max_sources").intValue()).isEqualTo(3);
  }

  @Test
  void aTenantIsDeletedOnlyOnceItHasNoSources() {
    String id = api.newTenant("starter");
    UUID source = api.newFeed(id, "Kept", "https://kept.example.org/feed");

    ApiClient.Response refused = api.delete("/tenants/" + id);

    assertThat(refused.status()).isEqualTo(409);
    assertThat(refused.errors()).singleElement().asString().contains("has 1 sources");
    assertThat(api.get("/sources/" + source).status()).isEqualTo(200);

    assertThat(api.delete("/sources/" + source).status()).isEqualTo(204);
    assertThat(api.delete("/tenants/" + id).status()).isEqualTo(204);
    assertThat(api.get("/tenants/" + id).status()).isEqualTo(404);
    assertThat(api.delete("/tenants/" + id).status()).isEqualTo(404);
  }
}
