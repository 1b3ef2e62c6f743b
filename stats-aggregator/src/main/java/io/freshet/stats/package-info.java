/**
 * The stats-aggregator: rolling per-source stats from {@code FetchCompleted} in an exactly-once
 * Kafka Streams topology ({@code topology}), the pure state and derivation behind it ({@code
 * state}) and interactive queries ({@code query}). The analysts' replay is the {@code
 * cadence-replay} module.
 */
package io.freshet.stats;
