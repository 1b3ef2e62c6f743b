/** The cadence lab command line: simulate policies on a trace, generate synthetic traces. */
package io.freshet.cadence.lab;
