/**
 * Freshet's event contracts: Avro schemas (generated classes in {@code io.freshet.schemas.avro}),
 * topic descriptors, the Confluent-wire-format serde and schema registration.
 */
package io.freshet.schemas;
