/**
 * Change-rate estimation from what fetches observed (item publication times, or changed / not
 * changed): the empirical-Bayes {@link io.freshet.cadence.estimate.RatePosterior} under a
 * population's {@link io.freshet.cadence.estimate.PopulationPrior}; bursts and quiet spells ({@link
 * io.freshet.cadence.estimate.AgeHazard}) and rhythm ({@link
 * io.freshet.cadence.estimate.HourOfWeekProfile}) combined as a {@link
 * io.freshet.cadence.estimate.ChangeShape}; and the earlier point estimators ({@link
 * io.freshet.cadence.estimate.ChangeRateEstimator}, {@link
 * io.freshet.cadence.estimate.RateTracker}). All pure: every call takes its instants explicitly.
 */
package io.freshet.cadence.estimate;
