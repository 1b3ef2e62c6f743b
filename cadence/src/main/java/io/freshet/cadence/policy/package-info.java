/** The cadence modes, one {@link io.freshet.cadence.policy.CadencePolicy} per mode. */
package io.freshet.cadence.policy;
