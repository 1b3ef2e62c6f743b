/**
 * The cadence model: when each source should be fetched next. Pure Java, no framework; every
 * time-dependent call takes an explicit instant or an injected {@link java.time.Clock}. Start at
 * {@link io.freshet.cadence.CadenceEngine}.
 */
package io.freshet.cadence;
