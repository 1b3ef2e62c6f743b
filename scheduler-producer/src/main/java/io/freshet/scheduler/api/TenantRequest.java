package io.freshet.scheduler.api;

import io.freshet.cadence.source.Tier;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * A validated tenant request body: {@code {id, tier, max_sources?}} to create, {@code {tier,
 * max_sources?}} to replace (an {@code id} there must match the path).
 *
 * @param maxSources the tenant's own source limit; null = the tier's default
 */
record TenantRequest(String id, Tier tier, Integer maxSources) {

  private static final List<String> FIELDS = List.of("id", "tier", "max_sources");
  private static final Set<String> KNOWN = Set.copyOf(FIELDS);

  /**
   * @param pathId the id in the URL of an update, or null for a creation
   * @throws ApiException 400 with one message per bad field
   */
  static TenantRequest parse(JsonNode body, String pathId) {
    List<String> errors = new ArrayList<>();
    if (!body.isObject()) {
      throw ApiException.badRequest("body: must be a JSON object");
    }
    for (String name : body.propertyNames()) {
      if (!KNOWN.contains(name)) {
        errors.add(name + ": unknown field; allowed fields: " + String.join(", ", FIELDS));
      }
    }
    JsonNode idNode = body.get("id");
    String id = pathId;
    if (pathId == null) {
      SourceValidator.checkTenantId("id", idNode).ifPresent(errors::add);
      id = idNode != null && idNode.isString() ? idNode.stringValue() : null;
    } else if (idNode != null
        && !idNode.isNull()
        && !(idNode.isString() && idNode.stringValue().equals(pathId))) {
      errors.add("id: cannot be changed; must be '" + pathId + "' or left out");
    }
    JsonNode tierNode = body.get("tier");
    Tier tier = null;
    if (tierNode == null || tierNode.isNull()) {
      errors.add("tier: is required; allowed values: " + Tier.allowed());
    } else {
      tier = tierNode.isString() ? Tier.parse(tierNode.stringValue()).orElse(null) : null;
      if (tier == null) {
        errors.add("tier: unknown tier " + tierNode + "; allowed values: " + Tier.allowed());
      }
    }
    JsonNode maxNode = body.get("max_sources");
    Integer max = null;
    if (maxNode != null && !maxNode.isNull()) {
      if (!maxNode.isIntegralNumber() || !maxNode.canConvertToInt() || maxNode.intValue() < 0) {
        errors.add(
            "max_sources: must be a whole number ≥ 0, or null for the tier's default, was "
                + maxNode);
      } else {
        max = maxNode.intValue();
      }
    }
    if (!errors.isEmpty()) {
      throw ApiException.badRequest(errors);
    }
    return new TenantRequest(id, tier, max);
  }
}
