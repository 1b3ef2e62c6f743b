/** Facts about a source that cadence reads: its category, tier, stats and fetch outcomes. */
package io.freshet.cadence.source;
