/**
 * Parsing and validating {@code config_json.cadence} into a {@link
 * io.freshet.cadence.config.CadenceSpec}.
 */
package io.freshet.cadence.config;
