/** The policies the simulator compares: Freshet's modes through the engine, peers, the oracle. */
package io.freshet.cadence.sim.peer;
