package io.freshet.schemas.evolution;

import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.Incompatibility;
import org.apache.avro.SchemaCompatibility.SchemaCompatibilityType;

/**
 * BACKWARD compatibility across a schema's whole history: the current schema, as a reader, must
 * read data written with every earlier version. Subscribers replaying a topic from its start meet
 * all of them.
 */
public final class CompatibilityGuard {

  private CompatibilityGuard() {}

  /** One earlier version the current schema cannot read, and why. */
  public record Problem(String version, List<String> reasons) {
    @Override
    public String toString() {
      return version + ": " + String.join("; ", reasons);
    }
  }

  /** A named earlier version of a schema. */
  public record Version(String name, Schema schema) {}

  /** Every earlier version that {@code current} cannot read; empty when all are readable. */
  public static List<Problem> problems(Schema current, List<Version> history) {
    List<Problem> problems = new ArrayList<>();
    for (Version old : history) {
      var result =
          SchemaCompatibility.checkReaderWriterCompatibility(current, old.schema()).getResult();
      if (result.getCompatibility() != SchemaCompatibilityType.COMPATIBLE) {
        List<String> reasons = new ArrayList<>();
        for (Incompatibility i : result.getIncompatibilities()) {
          reasons.add(
              i.getType() + " at " + fieldPath(current, i.getLocation()) + ": " + i.getMessage());
        }
        problems.add(new Problem(old.name(), reasons));
      }
    }
    return problems;
  }

  /**
   * Turns Avro's JSON-pointer location ({@code /fields/1/type}) into field names ({@code
   * window_fetches}), best effort, so the message says which field broke.
   */
  static String fieldPath(Schema reader, String location) {
    List<String> names = new ArrayList<>();
    Schema schema = reader;
    String[] steps = location.split("/");
    for (int i = 0; i < steps.length; i++) {
      if (steps[i].equals("fields")
          && i + 1 < steps.length
          && schema != null
          && schema.getType() == Schema.Type.RECORD) {
        int index = Integer.parseInt(steps[++i]);
        if (index >= schema.getFields().size()) {
          break;
        }
        Schema.Field field = schema.getFields().get(index);
        names.add(field.name());
        schema = field.schema();
      } else if (steps[i].equals("items")
          && schema != null
          && schema.getType() == Schema.Type.ARRAY) {
        schema = schema.getElementType();
      } else if (steps[i].equals("values")
          && schema != null
          && schema.getType() == Schema.Type.MAP) {
        schema = schema.getValueType();
      }
    }
    return names.isEmpty() ? location : String.join(".", names) + " (" + location + ")";
  }
}
