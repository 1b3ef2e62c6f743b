/**
 * The stats-aggregator: rolling per-source stats from {@code FetchCompleted} in an exactly-once
 * Kafka Streams topology ({@code topology}), the pure state and derivation behind it ({@code
 * state}), interactive queries ({@code query}) and the analysts' replay tool ({@code replay}).
 */
package io.freshet.stats;
