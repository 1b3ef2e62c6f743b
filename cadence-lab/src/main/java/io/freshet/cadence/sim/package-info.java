/**
 * The offline simulator: replays a trace of real changes against a policy, measures fetches, delay,
 * freshness and staleness, and compares policies at equal cost.
 */
package io.freshet.cadence.sim;
