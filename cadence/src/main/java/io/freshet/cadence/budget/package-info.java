/**
 * The global fetch budget: proportional compression for fixed modes, a Lagrange-multiplier
 * (bisection) allocation for {@code adaptive}.
 */
package io.freshet.cadence.budget;
