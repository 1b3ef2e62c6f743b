/**
 * Change-rate estimation from what fetches observed: item publication times, or changed / not
 * changed.
 */
package io.freshet.cadence.estimate;
